"""Synthetic but realistic memory texts, and synthetic vectors derived from real embeddings.

Texts are built from templates about the things an assistant remembers (diet, travel, work,
health, ...), so full-text search has real words to match. Scale runs embed a pool of base
texts with the real model and give each row a vector near one of them: the base vector plus a
share of a second base vector plus Gaussian noise, renormalised. Every row's text is its base
text plus a clause of the second base, so text and vector agree.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

PEOPLE = ["the user", "Anna", "Ben", "Carla", "David", "Emma", "the manager", "the client", "Grandma", "Tom"]
TOPICS: dict[str, list[str]] = {
    "diet": [
        "{p} prefers {food} for {meal} and avoids {food2} because of {reason}",
        "{p} cooked {food} with {food2} for {meal} on {day}",
        "{p} wants to eat less {food2} and more {food} this month",
    ],
    "travel": [
        "{p} is planning a trip to {city} in {month} and wants a hotel near {place}",
        "{p} flew to {city} on {day} and the flight was delayed by {n} hours",
        "{p} prefers a window seat and travels to {city} by {transport}",
    ],
    "work": [
        "{p} has a deadline for the {project} project on {day} and needs the {doc} reviewed",
        "{p} moved the {project} meeting to {day} at {n} pm",
        "{p} asked for weekly status reports about the {project} migration",
    ],
    "health": [
        "{p} takes {medicine} every {meal} and reported {symptom} after {activity}",
        "{p} has a doctor appointment on {day} about {symptom}",
        "{p} walks {n} kilometres a day to help with {symptom}",
    ],
    "finance": [
        "{p} pays the {bill} bill on the {n}th of each month from the {account} account",
        "{p} wants to save {n} hundred euros for the trip to {city}",
        "{p} disputed a charge of {n} euros from {shop}",
    ],
    "family": [
        "{p}'s daughter has {activity} practice every {day}",
        "{p} is organising a birthday party for {person2} in {month}",
        "{p} calls {person2} every {day} evening",
    ],
    "hobby": [
        "{p} is learning to play the {instrument} and practises {n} times a week",
        "{p} enjoys {activity} and bought new gear from {shop}",
        "{p} is reading a book about {subject} and recommends it",
    ],
    "home": [
        "{p} needs a plumber for the {room} sink before {day}",
        "{p} wants the {room} painted {color} and the heating set to {n} degrees",
        "{p} ordered a new {furniture} for the {room} from {shop}",
    ],
    "tech": [
        "{p} uses {software} for notes and syncs it with the {device}",
        "{p}'s {device} battery drains fast after the {software} update",
        "{p} prefers dark mode in {software} and large fonts on the {device}",
    ],
    "communication": [
        "{p} prefers short answers in {language} and bullet points for {doc}",
        "{p} does not want messages sent before {n} am",
        "{p} wants every email to {person2} to be confirmed before sending",
    ],
}
SLOTS: dict[str, list[str]] = {
    "food": ["oatmeal", "sushi", "lentil soup", "pasta", "salad", "tofu", "yogurt", "rye bread", "curry", "eggs"],
    "food2": ["sugar", "dairy", "gluten", "red meat", "coffee", "fried food", "peanuts", "shellfish", "alcohol"],
    "meal": ["breakfast", "lunch", "dinner", "brunch", "snack"],
    "reason": ["an allergy", "a diet plan", "cholesterol", "taste", "the doctor's advice", "sleep problems"],
    "city": ["Lisbon", "Berlin", "Kyoto", "Toronto", "Nairobi", "Oslo", "Seville", "Chicago", "Hanoi", "Prague"],
    "month": ["January", "March", "May", "June", "August", "October", "December"],
    "place": ["the old town", "the station", "the conference centre", "the beach", "the museum"],
    "transport": ["train", "car", "ferry", "bus", "bike"],
    "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "project": ["billing", "search", "mobile app", "data warehouse", "onboarding", "pricing", "payroll"],
    "doc": ["proposal", "contract", "design document", "budget", "release notes", "slides"],
    "medicine": ["vitamin D", "ibuprofen", "an antihistamine", "iron tablets", "magnesium"],
    "symptom": ["back pain", "headaches", "poor sleep", "a sore knee", "hay fever", "fatigue"],
    "activity": ["running", "swimming", "football", "yoga", "climbing", "cycling", "chess"],
    "bill": ["electricity", "internet", "phone", "water", "insurance", "rent"],
    "account": ["joint", "savings", "business", "household"],
    "shop": ["the hardware store", "an online shop", "the corner market", "the outlet", "the bookshop"],
    "person2": ["her brother", "his mother", "the neighbours", "an old friend", "the landlord", "the team lead"],
    "instrument": ["piano", "guitar", "violin", "drums", "cello"],
    "subject": ["Roman history", "astronomy", "gardening", "machine learning", "chess openings", "baking"],
    "room": ["kitchen", "bathroom", "bedroom", "living room", "office", "garage"],
    "color": ["light blue", "white", "olive green", "warm grey", "yellow"],
    "furniture": ["desk", "sofa", "bookshelf", "lamp", "bed frame"],
    "software": ["Obsidian", "Notion", "the calendar app", "Excel", "the password manager", "VS Code"],
    "device": ["laptop", "phone", "tablet", "smartwatch", "e-reader"],
    "language": ["English", "German", "Spanish", "French", "Portuguese"],
}
QUESTIONS = [
    "what does {p} eat for {meal}",
    "food {p} avoids",
    "trip to {city}",
    "travel preferences of {p}",
    "{project} project deadline",
    "when is the {project} meeting",
    "{p} symptoms and medicine",
    "doctor appointment about {symptom}",
    "{bill} bill payment",
    "saving money for a trip",
    "family birthday party plans",
    "{p} hobbies and {activity}",
    "learning the {instrument}",
    "repairs needed in the {room}",
    "{device} problems after an update",
    "how {p} wants messages written",
    "email confirmation before sending",
    "favourite {meal}",
    "books about {subject}",
    "preferred {transport} travel",
]
CLAUSES = [
    "noted on {day}",
    "mentioned while talking about {topic}",
    "confirmed again in {month}",
    "said during the {meal} chat",
    "came up when planning {topic}",
]
BUTLERS = ["general", "health", "travel", "work", "home"]


def _fill(template: str, rng: random.Random) -> str:
    values = {name: rng.choice(options) for name, options in SLOTS.items()}
    values["p"] = rng.choice(PEOPLE)
    values["n"] = str(rng.randint(2, 12))
    values["topic"] = rng.choice(list(TOPICS))
    text = template.format(**values)
    return text[0].upper() + text[1:]


def base_texts(count: int, seed: int = 7) -> list[str]:
    """count distinct memory sentences, evenly over the topics."""
    rng = random.Random(seed)
    templates = [(topic, t) for topic, group in TOPICS.items() for t in group]
    seen: set[str] = set()
    texts: list[str] = []
    attempts = 0
    while len(texts) < count and attempts < count * 50:
        attempts += 1
        _, template = templates[attempts % len(templates)]
        text = _fill(template, rng) + "."
        if text not in seen:
            seen.add(text)
            texts.append(text)
    return texts


def query_texts(count: int, seed: int = 11) -> list[str]:
    """count search queries in the words an agent would use (repeats allowed when count is large)."""
    rng = random.Random(seed)
    return [_fill(QUESTIONS[i % len(QUESTIONS)], rng).lower() for i in range(count)]


@dataclass(frozen=True)
class SyntheticRows:
    """n rows: text, vector (float32, unit length) and the base each was derived from."""

    texts: list[str]
    vectors: np.ndarray
    bases: np.ndarray


def synthetic_rows(
    n: int,
    bases: list[str],
    base_vectors: np.ndarray,
    rng: np.random.Generator,
    *,
    noise: float = 0.35,
    mix: float = 0.5,
) -> SyntheticRows:
    """n rows near the real base embeddings: normalise(base_i + U(0, mix) * base_j + noise).

    noise is the expected norm of the Gaussian noise vector (0.35: cosine about 0.9 to the base
    before mixing)."""
    count, dims = base_vectors.shape
    first = rng.integers(0, count, size=n)
    second = rng.integers(0, count, size=n)
    weight = rng.uniform(0.0, mix, size=(n, 1)).astype(np.float32)
    vectors = base_vectors[first] + weight * base_vectors[second]
    vectors += rng.normal(0.0, noise / np.sqrt(dims), size=(n, dims)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    pyrng = random.Random(int(rng.integers(0, 2**31)))
    texts = []
    for i, j in zip(first.tolist(), second.tolist(), strict=True):
        clause = _fill(rng_choice(CLAUSES, pyrng), pyrng)
        other = bases[j].rstrip(".")
        texts.append(
            f"{bases[i][:-1]}; also {other[0].lower()}{other[1:]} ({clause.lower()}, #{pyrng.randint(1, 9999)})."
        )
    return SyntheticRows(texts=texts, vectors=vectors.astype(np.float32, copy=False), bases=first)


def rng_choice(options: list[str], rng: random.Random) -> str:
    return options[rng.randrange(len(options))]


def unique_texts(count: int, seed: int) -> list[str]:
    """count distinct texts for the real-embedding tenants (ingest, filtered recall): base sentences
    with a distinguishing clause, so no two rows share a text or an embedding."""
    rng = random.Random(seed)
    texts = base_texts(max(count, 1), seed=seed)
    out = []
    for i, text in enumerate(texts[:count]):
        clause = _fill(rng_choice(CLAUSES, rng), rng).lower()
        out.append(f"{text[:-1]} ({clause}, note {i + 1}).")
    return out
