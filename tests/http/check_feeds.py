#!/usr/bin/env python3
# tests/http/check_feeds.py: validates a feed file as Atom (RFC 4287) or iCalendar (RFC 5545) for test_feeds
# SPDX-License-Identifier: MIT
"""check_feeds.py atom FILE | ics FILE: exit 0 when valid, else 1 with each fault on stderr.

Atom: well-formed XML in the Atom namespace; the feed has exactly one id,
title and updated, and an author (or every entry has one); every entry has
exactly one id, title and updated, and a link with an href; every date is
an RFC 3339 date-time; ids are absolute IRIs. Prints each entry's title.

iCalendar: CRLF line ends only; no line longer than 75 octets; unfolded,
one VCALENDAR with VERSION:2.0 and a PRODID; every VEVENT has exactly one
UID, DTSTAMP and DTSTART (UTC date-times) and balanced BEGIN/END; TEXT
values escape backslash, semicolon and comma. Prints each SUMMARY unescaped.
"""
import re
import sys
import xml.etree.ElementTree as ET

A = "{http://www.w3.org/2005/Atom}"
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")
faults = []


def fault(msg):
    faults.append(msg)


def one(el, name, where):
    found = el.findall(A + name)
    if len(found) != 1:
        fault("%s: %d atom:%s, wanted exactly one" % (where, len(found), name))
        return None
    return found[0]


def check_atom(data):
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        fault("not well-formed XML: %s" % e)
        return
    if root.tag != A + "feed":
        fault("the root is %s, not atom:feed" % root.tag)
        return
    for where, el in [("feed", root)] + [("entry %d" % i, e) for i, e in enumerate(root.findall(A + "entry"))]:
        i = one(el, "id", where)
        if i is not None and not IRI.match(i.text or ""):
            fault("%s: id %r is not an absolute IRI" % (where, i.text))
        t = one(el, "title", where)
        if t is not None and not (t.text or "").strip():
            fault("%s: an empty title" % where)
        u = one(el, "updated", where)
        if u is not None and not DATE.match(u.text or ""):
            fault("%s: updated %r is not an RFC 3339 date-time" % (where, u.text))
        if el is not root:
            links = [l for l in el.findall(A + "link") if l.get("href")]
            if not links:
                fault("%s: no link with an href" % where)
            print("title: %s" % t.text if t is not None else "")
    entries = root.findall(A + "entry")
    if not root.findall(A + "author") and not all(e.findall(A + "author") for e in entries):
        fault("feed: no author, and not every entry has one")


def check_ics(data):
    if re.search(b"(?<!\r)\n", data) or re.search(b"\r(?!\n)", data):
        fault("a line does not end with CRLF")
    raw = data.split(b"\r\n")
    if raw[-1] != b"":
        fault("the last line does not end with CRLF")
    for n, line in enumerate(raw[:-1]):
        if len(line) > 75:
            fault("line %d has %d octets (at most 75)" % (n + 1, len(line)))
    # unfold, then decode: a fold never splits a character
    lines = []
    for line in raw[:-1]:
        if line[:1] in (b" ", b"\t") and lines:
            lines[-1] += line[1:]
        else:
            lines.append(line)
    try:
        lines = [l.decode("utf-8") for l in lines]
    except UnicodeDecodeError as e:
        fault("not UTF-8 after unfolding: %s" % e)
        return
    if not lines or lines[0] != "BEGIN:VCALENDAR" or lines[-1] != "END:VCALENDAR":
        fault("not one VCALENDAR")
    props = [l.split(":", 1)[0].split(";", 1)[0] for l in lines]
    if props.count("VERSION") != 1 or "VERSION:2.0" not in lines:
        fault("no VERSION:2.0")
    if props.count("PRODID") != 1:
        fault("no PRODID")
    event = None
    for l in lines:
        name, _, value = l.partition(":")
        if l == "BEGIN:VEVENT":
            if event is not None:
                fault("a VEVENT inside a VEVENT")
            event = {}
        elif l == "END:VEVENT":
            if event is None:
                fault("END:VEVENT without BEGIN")
                continue
            for p in ("UID", "DTSTAMP", "DTSTART"):
                if event.get(p, 0) != 1:
                    fault("a VEVENT with %d %s" % (event.get(p, 0), p))
            event = None
        elif event is not None:
            event[name] = event.get(name, 0) + 1
            if name in ("DTSTAMP", "DTSTART") and not re.match(r"^\d{8}T\d{6}Z$", value):
                fault("%s %r is not a UTC date-time" % (name, value))
            if name in ("SUMMARY", "DESCRIPTION"):
                if re.search(r"(?<!\\)[;,]", value.replace("\\\\", "")):
                    fault("%s has an unescaped ; or ,: %r" % (name, value))
                if name == "SUMMARY":
                    text = re.sub(r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)
                    print("summary: %s" % text)
    if event is not None:
        fault("a VEVENT without END")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("atom", "ics"):
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[2], "rb") as f:
        data = f.read()
    (check_atom if sys.argv[1] == "atom" else check_ics)(data)
    for msg in faults:
        print("fault: %s" % msg, file=sys.stderr)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
