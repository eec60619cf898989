#!/usr/bin/env python3
# tests/notify/slow_smtp.py: an SMTP sink that hangs on the first message to one recipient
# SPDX-License-Identifier: MIT
"""slow_smtp.py PORTFILE LOG HANG_ADDRESS HANG_SECONDS

Listens on 127.0.0.1 (a free port, written to PORTFILE), accepts every
message, and logs one line per RCPT ("rcpt ADDRESS MS") and per message taken
("sent ADDRESS EVENT MS", EVENT from X-Turnpost-Event), MS being the real
clock in milliseconds. The first RCPT to HANG_ADDRESS is answered only after
HANG_SECONDS, as a tarpitting server would.
"""
import asyncio
import os
import sys
import time

port_file, log_path, hang_to, hang_s = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
log = open(log_path, "a", buffering=1)
hung = set()


def now_ms():
    return int(time.time() * 1000)


async def session(reader, writer):
    rcpt, event = None, "?"
    try:
        writer.write(b"220 sink ESMTP\r\n")
        await writer.drain()
        while True:
            line = await reader.readline()
            if not line:
                break
            cmd = line.decode("utf-8", "replace").strip()
            upper = cmd.upper()
            if upper.startswith("EHLO") or upper.startswith("HELO"):
                writer.write(b"250 sink\r\n")
            elif upper.startswith("RCPT TO"):
                rcpt = cmd[cmd.find("<") + 1:cmd.find(">")]
                log.write("rcpt %s %d\n" % (rcpt, now_ms()))
                if rcpt == hang_to and rcpt not in hung:
                    hung.add(rcpt)
                    await asyncio.sleep(hang_s)
                writer.write(b"250 ok\r\n")
            elif upper == "DATA":
                writer.write(b"354 go on\r\n")
                await writer.drain()
                while True:
                    data = await reader.readline()
                    if not data or data in (b".\r\n", b".\n"):
                        break
                    if data.startswith(b"X-Turnpost-Event:"):
                        event = data[17:].decode().strip()
                log.write("sent %s %s %d\n" % (rcpt, event, now_ms()))
                writer.write(b"250 queued\r\n")
            elif upper == "QUIT":
                writer.write(b"221 bye\r\n")
                await writer.drain()
                break
            else:
                writer.write(b"250 ok\r\n")
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    writer.close()


async def main():
    server = await asyncio.start_server(session, "127.0.0.1", 0)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.sockets[0].getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    await server.serve_forever()


asyncio.run(main())
