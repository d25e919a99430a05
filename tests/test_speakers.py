"""Who said it (pymem_private.speaker_turns): a chat line's label makes the speaker the subject of what the
built-in extractor draws from it, an assistant's turn yields nothing, and only the user's words make a rule."""

from __future__ import annotations

from typing import Any

import psycopg

from tests.conftest import Tenant
from tests.sqlapi import call, store_episode


def extracted(conn: psycopg.Connection[Any], content: str) -> set[tuple[str, str | None, str]]:
    return {
        (row[0], row[1], row[2])
        for row in conn.execute(
            "select memory_type, subject, statement from pymem.memory_extract(%s::text)", (content,)
        ).fetchall()
    }


def test_a_named_speaker_is_the_subject_never_the_user(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        assert extracted(conn, "Maya: My name is Maya and I work as a nurse.") == {
            ("fact", "Maya", "Maya's name is Maya."),
            ("fact", "Maya", "Maya works as nurse."),
        }
        # two speakers in one episode: each line's facts are its speaker's
        both = extracted(conn, "Maya: I have a dog named Pixel.\nTom: I am allergic to cats.")
        assert both == {("fact", "Maya", "Maya has a dog."), ("fact", "Tom", "Tom is allergic to cats.")}
        # what the user of a user/assistant chat says stays the user's; the assistant's turn says nothing
        assert extracted(conn, "User: I work as a carpenter.") == {("fact", "user", "The user works as carpenter.")}
        assert extracted(conn, "Assistant: Since you work as a carpenter, try oak.") == set()
        assert extracted(conn, "User: I have a dog.\nAssistant: I have a cat.") == {
            ("fact", "user", "The user has a dog.")
        }


def test_only_the_user_asks_for_a_rule_and_a_label_that_names_no_one_is_text(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        assert extracted(conn, "Maya: from now on, always answer in French please.") == set()
        (rule,) = extracted(conn, "Remember: from now on, always answer in French please.")
        assert rule[0] == "rule"
        assert extracted(conn, "Note: I work as a carpenter.") == {("fact", "user", "The user works as carpenter.")}
        kinds = conn.execute(
            "select pymem_private.speaker_kind(l) from unnest(array['Maya', 'Tom Hale', 'User', 'Assistant',"
            " 'Note', 'Tool output', 'The email says', 'Remember']) as l"
        ).fetchall()
    assert [k for (k,) in kinds] == ["person", "person", "user", "agent", None, None, None, None]


def test_consolidation_files_a_group_chat_under_its_speakers(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_episode(conn, "Maya: I moved to Leeds last spring.", "chat")
        store_episode(conn, "Tom: I work as a teacher.", "chat")
        store_episode(conn, "Assistant: I work as an assistant.", "chat")
        call(conn, "memory_consolidate")
        facts = conn.execute("select subject, content from pymem.facts order by subject").fetchall()
    assert {s for s, _ in facts} == {"Maya", "Tom"} and len(facts) >= 2, facts


def test_fragments_and_sentences_about_someone_else_are_not_stored(as_tenant: Tenant) -> None:
    """What the realistic chats (eval/conversations) showed the extractor storing: a value that is a fragment of
    its sentence, a sentence about the person spoken to, an appointment told in the past or on a condition."""
    with as_tenant("acme") as conn:
        complete = conn.execute(
            "select v, pymem_private.complete_value(v) from unnest(array['coeliac disease', '34', 'be fluent in"
            " Japanese', 'pass the N5 in', 'each other', 'now', 'me', 'is awesome']) as v"
        ).fetchall()
        assert dict(complete) == {
            "coeliac disease": True,
            "34": True,
            "be fluent in Japanese": True,
            "pass the N5 in": False,
            "each other": False,
            "now": False,
            "me": False,
            "is awesome": False,
        }
        assert extracted(conn, "Rosa: You will speak Spanish every day.") == set()
        assert extracted(conn, "Rosa: I speak Spanish every day.") == {("fact", "Rosa", "Rosa speaks Spanish.")}
        assert extracted(conn, "The operation on Tuesday was only twenty minutes.") == set()
        assert extracted(conn, "interview's on the 20th if i get through") == set()
        (appointment,) = extracted(conn, "I have a dentist appointment on Tuesday at 3pm.")
        assert appointment[1] == "user" and "appointment" in appointment[2]
        assert extracted(conn, "I own a 2008 Corolla that refuses to die") == {
            ("fact", "user", "The user owns Corolla.")
        }


def test_between_people_only_a_sentence_in_the_first_person_is_about_the_speaker(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        assert extracted(conn, "Priya: did u see him eat two slices of cake tho. DIABETES DAD") == set()
        assert extracted(conn, "Priya: I have diabetes, type 1.") != set()
        # a birthday needs its month: "the 2nd" alone is not one
        assert extracted(conn, "Maya: my birthday is the 2nd. big 3 0") == set()
        assert extracted(conn, "Maya: my birthday is on 2 October.") == {
            ("fact", "Maya", "Maya's birthday is 2 October.")
        }
