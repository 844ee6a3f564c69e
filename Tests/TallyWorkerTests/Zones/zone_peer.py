#!/usr/bin/env python3
"""Test peer of ZonePeerTests: local days and hours of IANA zones computed with Python's zoneinfo over the
system tz database (/usr/share/zoneinfo), independently of Foundation and ICU.

Reads {"cases": [{"zone": str, "day": int, "now": float}]} on standard input (day: days since 1970-01-01;
now: seconds since 1970) and writes {"version": str, "answers": [...]}: for each case either
{"start", "end", "hours": [[start, wall hour], ...], "today"} or {"skipped": reason}.

A local day starts at the first instant at which the zone's clock shows that date or a later one. Offsets come
from zoneinfo alone; the transitions around a date are found by bisecting between hourly offset readings to the
second (the database has no two transitions within 48 hours, let alone within one).
"""
import datetime
import json
import sys
import zoneinfo

ZONEINFO = "/usr/share/zoneinfo"
UTC = datetime.timezone.utc


def version():
    with open(f"{ZONEINFO}/tzdata.zi", encoding="utf-8") as handle:
        return handle.readline().split()[-1]


def main_data_zones():
    """The zones of zone1970.tab: Zone entries of the tz database's main data. Debian builds its zoneinfo with
    the 'backzone' file, which gives the other names (Africa/Addis_Ababa, Europe/Oslo, ...) histories of their own
    before 1970, where ICU's data (and so Foundation's) makes them links to a main-data zone."""
    zones = set()
    with open(f"{ZONEINFO}/zone1970.tab", encoding="utf-8") as handle:
        for line in handle:
            if not line.startswith("#") and line.strip():
                zones.add(line.split("\t")[2].strip())
    return zones


def offset(zone, seconds):
    moment = datetime.datetime.fromtimestamp(seconds, UTC).astimezone(zone)
    return int(moment.utcoffset().total_seconds())


def transitions(zone, low, high):
    """Instants in (low, high] at which the offset changes, to the second."""
    found = []
    step = 3600
    before, previous = low, offset(zone, low)
    probe = low + step
    while probe <= high:
        current = offset(zone, probe)
        if current != previous:
            left, right = before, probe  # offset(left) == previous, offset(right) != previous
            while right - left > 1:
                middle = (left + right) // 2
                if offset(zone, middle) == previous:
                    left = middle
                else:
                    right = middle
            found.append(right)
        before, previous = probe, current
        probe += step
    return found


def day_start(zone, day):
    midnight = day * 86400
    low, high = midnight - 20 * 3600, midnight + 20 * 3600
    bounds = [low] + transitions(zone, low, high) + [high]
    for start, end in zip(bounds, bounds[1:]):
        reached = max(start, midnight - offset(zone, start))
        if reached < end:
            return reached
    return high


def wall_day(zone, seconds):
    return (int(seconds // 1) + offset(zone, seconds)) // 86400


def answer(case, comparable):
    name = case["zone"]
    if name not in comparable:
        return {"skipped": f"{name} is not a zone of the main data (zone1970.tab)"}
    zone = zoneinfo.ZoneInfo(name)
    start, end = day_start(zone, case["day"]), day_start(zone, case["day"] + 1)
    hours = []
    for bucket in range(start, end, 3600):
        local = bucket + offset(zone, bucket)
        hours.append([bucket, (local % 86400) // 3600])
    return {"start": start, "end": end, "hours": hours, "today": wall_day(zone, case["now"])}


def main():
    request = json.load(sys.stdin)
    comparable = main_data_zones()
    answers = [answer(case, comparable) for case in request["cases"]]
    json.dump({"version": version(), "answers": answers}, sys.stdout)


if __name__ == "__main__":
    main()
