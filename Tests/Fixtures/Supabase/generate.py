#!/usr/bin/env python3
"""Writes the fixtures of `gatehouse users import` (SupabaseImportTests), once; the files are
committed, so the tests never run this. Run with the venv's Python (bcrypt, Tools/requirements.txt):

    .build/venv/bin/python Tests/Fixtures/Supabase/generate.py

- users.csv: 1,000 users as `\\copy (the query in docs/supabase.md) to 'users.csv' with (format
  csv, header)` writes them: bcrypt hashes by Python's bcrypt at cost 4 (so the tests are quick;
  Supabase's own are $2a$10$), most `$2a$` as Go's bcrypt writes them, some `$2b$` and `$2y$`.
  User i's address is user{i:04d}@moved.example and its password `password(i)` below, which
  the tests compute the same way. Every 50th (i % 50 == 49) never confirmed its address; every
  10th has a confirmed phone, every 7th a Google identity, every 25th an Apple one.
- edge-cases.json: rows as `psql -At -c "select json_agg(t) from (the query) t"` writes them,
  each skipped or imported for a reason the test names (see EDGE_CASES' comments).
"""
import csv
import json
import os
import random
import uuid

import bcrypt

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = [
    "id", "email", "phone", "encrypted_password", "email_confirmed_at", "phone_confirmed_at",
    "last_sign_in_at", "created_at", "updated_at", "banned_until", "deleted_at", "is_anonymous",
    "raw_app_meta_data", "raw_user_meta_data", "identities",
]


def password(i):
    """User i's password: some with letters beyond ASCII (hashed as UTF-8, as Go hashes them)."""
    return f"Moved user {i} ünïcødé" if i % 9 == 0 else f"moved-user-{i:04d}-secret"


def hashed(text, prefix):
    made = bcrypt.hashpw(text.encode(), bcrypt.gensalt(rounds=4, prefix=b"2a" if prefix == "2a" else b"2b"))
    return "$" + prefix + made.decode()[3:]


def time(rng, year):
    return f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} {rng.randint(0, 23):02d}:" \
        f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999999):06d}+00"


def user(i, rng):
    uid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    email = f"user{i:04d}@moved.example"
    created = time(rng, 2024)
    providers = ["email"]
    identities = [{"provider": "email", "provider_id": uid}]
    phone = None
    if i % 10 == 0:
        phone = f"1415555{i:04d}"
        providers.append("phone")
        identities.append({"provider": "phone", "provider_id": uid})
    if i % 7 == 0:
        providers.append("google")
        identities.append({"provider": "google", "provider_id": str(100000000000000000000 + i)})
    if i % 25 == 0:
        providers.append("apple")
        identities.append({"provider": "apple", "provider_id": f"001234.{i:032x}.0101"})
    prefix = "2y" if i % 13 == 0 else "2b" if i % 5 == 0 else "2a"
    confirmed = i % 50 != 49
    return {
        "id": uid, "email": email, "phone": phone, "encrypted_password": hashed(password(i), prefix),
        "email_confirmed_at": created if confirmed else None, "phone_confirmed_at": created if phone else None,
        "last_sign_in_at": time(rng, 2025) if confirmed else None, "created_at": created,
        "updated_at": time(rng, 2025), "banned_until": None, "deleted_at": None, "is_anonymous": False,
        "raw_app_meta_data": {"provider": "email", "providers": providers, **({"role": "editor"} if i % 3 == 0 else {})},
        "raw_user_meta_data": {"name": f"User {i}"} if i % 4 == 0 else {},
        "identities": identities,
    }


def csv_value(value):
    """psql's CSV: NULL as an empty unquoted field, booleans as t/f, JSON as its text."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(", ", ": "))
    return value


def write_csv(users):
    with open(os.path.join(HERE, "users.csv"), "w", newline="") as file:
        file.write(",".join(COLUMNS) + "\n")
        for row in users:
            fields = []
            for column in COLUMNS:
                value = csv_value(row[column])
                if value is None:
                    fields.append("")
                elif value == "" or any(c in value for c in ',"\n\r'):
                    fields.append('"' + value.replace('"', '""') + '"')
                else:
                    fields.append(value)
            file.write(",".join(fields) + "\n")


def edge_cases(users, rng):
    def row(**changes):
        base = user(2000 + len(rows), rng)
        base.update(changes)
        return base

    rows = []
    # 1. Another user's address, its domain in other letters: skipped, "duplicate address".
    rows.append(row(email="user0001@Moved.Example"))
    # 2. An id that is not a UUID: skipped, bad row.
    rows.append(row(id="42"))
    # 3. An argon2 hash (Supabase imports them from elsewhere): skipped, unsupported hash.
    rows.append(row(encrypted_password="$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"))
    # 4. bcrypt above the cost Gatehouse tries: skipped, unsupported hash.
    rows.append(row(encrypted_password=hashed("too costly", "2a").replace("$2a$04$", "$2a$14$")))
    # 5. Banned until 2999: imported, banned.
    rows.append(row(banned_until="2999-01-01T00:00:00+00:00"))
    # 6. Deleted: skipped.
    rows.append(row(deleted_at="2025-02-01T00:00:00.5+00:00"))
    # 7. Google subject of user 7: skipped, "duplicate google identity".
    rows.append(row(identities=[{"provider": "google", "provider_id": str(100000000000000000000 + 7)}]))
    # 8. The same id as user 2: already present, nothing written.
    rows.append(row(id=users[2]["id"], email="someone.else@moved.example"))
    # 9. Not an object at all: skipped, bad row.
    rows.append(42)
    # 10. A phone never confirmed: imported without it.
    rows.append(row(email="unconfirmed.phone@moved.example", phone="14155559999", phone_confirmed_at=None))
    # 11. JSON's timestamps (row_to_json), a $2y$ hash, and a GitHub identity: imported, signs in.
    rows.append(row(
        email="json.user@moved.example", encrypted_password=hashed("json user password", "2y"),
        created_at="2024-03-04T05:06:07.123456+00:00", email_confirmed_at="2024-03-04T05:16:07+00:00",
        raw_user_meta_data={"full_name": "Jay Son", "avatar_url": "https://example.com/a.png"},
        raw_app_meta_data={"provider": "email", "providers": ["email", "github"], "plan": "team"},
        identities=[{"provider": "email", "provider_id": "x"}, {"provider": "github", "provider_id": "583231"}]))
    # 12. No password (a provider's user): imported.
    rows.append(row(email="no.password@moved.example", encrypted_password=""))
    return rows


def main():
    rng = random.Random(36)
    users = [user(i, rng) for i in range(1000)]
    write_csv(users)
    rows = edge_cases(users, rng)
    with open(os.path.join(HERE, "edge-cases.json"), "w") as file:
        json.dump(rows, file, indent=1)
        file.write("\n")


if __name__ == "__main__":
    main()
