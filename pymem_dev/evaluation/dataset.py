"""The golden dataset: loading and validation (errors name the bad memory or question).

File format (eval/golden/dataset.json, written by eval/golden/generate.py)::

    {"tenants": {"household": "..."},
     "memories": [{"key": "hh.leo.allergy", "tenant": "household", "type": "fact", "subject": "leo",
                   "predicate": "allergy", "content": "...", "scope": "health", "importance": 10,
                   "permanence": "permanent", "tags": ["allergy"]},
                  {"key": "...", "type": "episode", "butler": "health", "session": "hh-s5", "content": "..."},
                  {"key": "...", "type": "rule", "content": "...", "scope": "kitchen", "maturity": "proven"},
                  ... "retract": true marks a memory forgotten after storing],
     "questions": [{"id": "d02", "tenant": "household", "category": "direct", "query": "...",
                    "relevant": {"hh.leo.allergy": 2}, "scope": null, "types": ["fact"],
                    "current": "key (superseded)", "absent": ["keys that must not appear"], "split": "test"}]}

A question's split is "test" (the default: the questions that are reported) or "train" (questions for
fitting a relevance model, never reported). A conversational question's answer is a reply episode of a
chat session, one that does not repeat the topic of the turn before it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pymem.errors import InvalidArgumentError

CATEGORIES = (
    "direct",
    "paraphrase",
    "keyword_name",
    "stemming",
    "cjk",
    "scope",
    "superseded",
    "conversational",
    "retracted",
    "no_answer",
    "near_miss",
)
MEMORY_TYPES = ("episode", "fact", "rule")
MATURITIES = ("candidate", "established", "proven")
SPLITS = ("test", "train")
DEFAULT_DATASET = Path(__file__).resolve().parents[2] / "eval" / "golden" / "dataset.json"


class DatasetError(InvalidArgumentError):
    """The dataset file is malformed; the message names the memory or question."""


@dataclass(frozen=True)
class Memory:
    key: str
    tenant: str
    type: str
    content: str
    subject: str | None = None
    predicate: str | None = None
    scope: str = "global"
    butler: str | None = None
    session: str | None = None
    importance: float = 5.0
    permanence: str = "standard"
    tags: tuple[str, ...] = ()
    maturity: str = "candidate"
    retract: bool = False


@dataclass(frozen=True)
class Question:
    id: str
    tenant: str
    category: str
    query: str
    relevant: dict[str, int] = field(default_factory=dict)
    scope: str | None = None
    types: tuple[str, ...] | None = None
    current: str | None = None
    absent: tuple[str, ...] = ()
    split: str = "test"


@dataclass(frozen=True)
class Dataset:
    tenants: dict[str, str]
    memories: list[Memory]
    questions: list[Question]

    @property
    def by_key(self) -> dict[str, Memory]:
        return {m.key: m for m in self.memories}


def _text(where: str, raw: dict[str, Any], name: str, *, required: bool = True) -> str | None:
    value = raw.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise DatasetError(f"{where}: {name!r} must be a non-empty string, not {value!r}")
    return value


def _memory(index: int, raw: Any, tenants: dict[str, str]) -> Memory:
    if not isinstance(raw, dict):
        raise DatasetError(f"memory #{index}: must be an object")
    key = _text(f"memory #{index}", raw, "key")
    where = f"memory {key!r}"
    tenant = _text(where, raw, "tenant")
    if tenant not in tenants:
        raise DatasetError(f"{where}: tenant {tenant!r} is not one of the dataset's tenants {sorted(tenants)}")
    kind = raw.get("type")
    if kind not in MEMORY_TYPES:
        raise DatasetError(f"{where}: type must be one of {', '.join(MEMORY_TYPES)}, not {kind!r}")
    content = _text(where, raw, "content")
    assert key is not None and tenant is not None and content is not None
    subject = predicate = butler = session = None
    if kind == "fact":
        subject = _text(where, raw, "subject")
        predicate = _text(where, raw, "predicate")
    if kind == "episode":
        butler = _text(where, raw, "butler")
        session = _text(where, raw, "session", required=False)
    maturity = raw.get("maturity", "candidate")
    if maturity not in MATURITIES:
        raise DatasetError(f"{where}: maturity must be one of {', '.join(MATURITIES)}, not {maturity!r}")
    importance = raw.get("importance", 5.0)
    if not isinstance(importance, int | float) or not 0 <= importance <= 10:
        raise DatasetError(f"{where}: importance must be a number from 0 to 10, not {importance!r}")
    tags = raw.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise DatasetError(f"{where}: tags must be a list of strings")
    return Memory(
        key=key,
        tenant=tenant,
        type=kind,
        content=content,
        subject=subject,
        predicate=predicate,
        scope=_text(where, raw, "scope", required=False) or "global",
        butler=butler,
        session=session,
        importance=float(importance),
        permanence=str(raw.get("permanence", "standard")),
        tags=tuple(tags),
        maturity=maturity,
        retract=bool(raw.get("retract", False)),
    )


def _question(index: int, raw: Any, tenants: dict[str, str], keys: dict[str, Memory]) -> Question:
    if not isinstance(raw, dict):
        raise DatasetError(f"question #{index}: must be an object")
    qid = _text(f"question #{index}", raw, "id")
    where = f"question {qid!r}"
    tenant = _text(where, raw, "tenant")
    if tenant not in tenants:
        raise DatasetError(f"{where}: tenant {tenant!r} is not one of the dataset's tenants {sorted(tenants)}")
    category = raw.get("category")
    if category not in CATEGORIES:
        raise DatasetError(f"{where}: category must be one of {', '.join(CATEGORIES)}, not {category!r}")
    query = _text(where, raw, "query")
    relevant = raw.get("relevant", {})
    if not isinstance(relevant, dict) or not all(isinstance(g, int) and g >= 0 for g in relevant.values()):
        raise DatasetError(f"{where}: relevant must map memory keys to grades (integers >= 0)")
    current = raw.get("current")
    absent = raw.get("absent", [])
    if not isinstance(absent, list):
        raise DatasetError(f"{where}: absent must be a list of memory keys")
    for key in [*relevant, *absent, *([current] if current else [])]:
        if key not in keys:
            raise DatasetError(f"{where}: names memory {key!r}, which the dataset does not have")
        if keys[key].tenant != tenant:
            raise DatasetError(f"{where}: memory {key!r} belongs to tenant {keys[key].tenant!r}, not {tenant!r}")
    for key in relevant:
        if keys[key].retract and relevant[key] > 0:
            raise DatasetError(f"{where}: memory {key!r} is retracted and cannot be relevant")
    if set(relevant) & set(absent):
        raise DatasetError(f"{where}: a key is both relevant and absent")
    if category == "superseded" and (not current or not absent):
        raise DatasetError(f"{where}: a superseded question names its current key and the old key(s) in absent")
    if category == "retracted" and not absent:
        raise DatasetError(f"{where}: a retracted question names the retracted key(s) in absent")
    if category in ("no_answer", "near_miss") and relevant:
        raise DatasetError(f"{where}: a {category} question has no relevant memories")
    if category not in ("retracted", "no_answer", "near_miss") and not any(g > 0 for g in relevant.values()):
        raise DatasetError(f"{where}: a {category} question needs at least one relevant memory")
    if category == "conversational" and not any(
        g > 0 and keys[key].type == "episode" and keys[key].session for key, g in relevant.items()
    ):
        raise DatasetError(f"{where}: a conversational question's answer is an episode of a session")
    split = raw.get("split", "test")
    if split not in SPLITS:
        raise DatasetError(f"{where}: split must be one of {', '.join(SPLITS)}, not {split!r}")
    types = raw.get("types")
    if types is not None and (not isinstance(types, list) or not types or not set(types) <= set(MEMORY_TYPES)):
        raise DatasetError(f"{where}: types must be a non-empty list of {', '.join(MEMORY_TYPES)}")
    scope = _text(where, raw, "scope", required=False)
    assert qid is not None and tenant is not None and query is not None
    return Question(
        id=qid,
        tenant=tenant,
        category=category,
        query=query,
        relevant=dict(relevant),
        scope=scope,
        types=tuple(types) if types else None,
        current=current,
        absent=tuple(absent),
        split=split,
    )


def parse_dataset(data: Any) -> Dataset:
    if not isinstance(data, dict):
        raise DatasetError("the dataset must be a JSON object with tenants, memories and questions")
    tenants = data.get("tenants")
    if not isinstance(tenants, dict) or not tenants:
        raise DatasetError("the dataset's 'tenants' must be a non-empty object (tenant id -> description)")
    raw_memories = data.get("memories")
    raw_questions = data.get("questions")
    if not isinstance(raw_memories, list) or not isinstance(raw_questions, list):
        raise DatasetError("the dataset's 'memories' and 'questions' must be lists")
    memories = [_memory(i, raw, tenants) for i, raw in enumerate(raw_memories)]
    keys: dict[str, Memory] = {}
    for memory in memories:
        if memory.key in keys:
            raise DatasetError(f"memory {memory.key!r}: the key is used twice")
        keys[memory.key] = memory
    questions = [_question(i, raw, tenants, keys) for i, raw in enumerate(raw_questions)]
    ids = [q.id for q in questions]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise DatasetError(f"question {duplicates[0]!r}: the id is used twice")
    return Dataset(tenants=dict(tenants), memories=memories, questions=questions)


def load_dataset(path: Path | None = None) -> Dataset:
    path = path or DEFAULT_DATASET
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise DatasetError(f"no golden dataset at {path}") from None
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path} is not valid JSON: {exc}") from None
    try:
        return parse_dataset(data)
    except DatasetError as exc:
        raise DatasetError(f"{path}: {exc}") from None
