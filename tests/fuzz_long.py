"""The long fuzz run (issue 16): hostile replies for as long as you give it, with its figures.

    .venv/bin/python tests/fuzz_long.py --replies 20000 --seed 1

Each reply is built from ``tests/robust/fuzz_pieces.py`` (the pieces the default suite draws
from) by a seeded generator, resolved on one of five rulesets and held to ``check_reply``: no
exception, no ``error`` record, valid UTF-8 JSON out, at most 200 new stacks. It prints how many
replies and tags it ran, the slowest reply and the most stacks one reply started; the first reply
that breaks a guarantee stops it, printed so it can be replayed. Not part of the test run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from middleware.items.stack_room import stacks_in
from tests.robust.fuzz_pieces import RULESETS, check_reply, random_reply, start_state


def main() -> int:
    ask = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ask.add_argument("--replies", type=int, default=20_000)
    ask.add_argument("--seed", type=int, default=1)
    ask.add_argument("--pieces", type=int, default=40, help="most pieces in one reply")
    args = ask.parse_args()
    rng = random.Random(args.seed)
    statuses: Counter[str] = Counter()
    slowest, most_stacks, started = 0.0, 0, time.perf_counter()
    for n in range(args.replies):
        name, reply = rng.choice(RULESETS), random_reply(rng, rng.randint(1, args.pieces))
        began = time.perf_counter()
        try:
            done = check_reply(name, reply, n)
        except BaseException:
            print(f"reply {n} on {name} broke a guarantee:\n{reply!r}", file=sys.stderr)
            raise
        slowest = max(slowest, time.perf_counter() - began)
        most_stacks = max(most_stacks, stacks_in(done.state) - stacks_in(start_state(name)))
        statuses.update(r.status for r in done.records)
    took = time.perf_counter() - started
    print(f"{args.replies} replies, {sum(statuses.values())} tags ({dict(statuses)}) in "
          f"{took:.1f} s: {1000 * took / args.replies:.2f} ms per reply, slowest "
          f"{1000 * slowest:.1f} ms, at most {most_stacks} stacks started by one reply; "
          "no exception, no error record.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
