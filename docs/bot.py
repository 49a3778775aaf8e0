#!/usr/bin/env python3
"""A bot for `scryptic serve`, written from PROTOCOL.md and protocol.schema.json alone.

    python3 bot.py http://127.0.0.1:7878 scryper [LEVEL]
    python3 bot.py https://play.example.org word-wars

It makes a match of the pack's first mode, the first seat its own and every other seat the
server's AI (at LEVEL, easy unless given), takes its seat, and plays the whole match over the
WebSocket: a move the view lists in a scripted game (Scryper); in a game of turns, its turn
passed where the rules allow it, else a letter traded back, else the round given up (it lays
no word: a bot that does is yours to write); every question answered (an order of defence
left to the engine, an offer of sudden death refused); `next` between rounds. It prints what it did, and the result when a `seats` frame says the match is over.

Only Python's standard library: the WebSocket is spoken by hand (RFC 6455), a hundred lines
a client in any language can copy.
"""

import base64
import json
import os
import random
import socket
import ssl
import struct
import sys
import time
import urllib.parse
import urllib.request

# Seats in actions: the first seat is Gold, the second Silver, then Seat3 to Seat8, whatever
# the mode calls them (its `seat_names`, in the same order).
PLAYERS = ["Gold", "Silver", "Seat3", "Seat4", "Seat5", "Seat6", "Seat7", "Seat8"]


def lobby(base, method, path, body=None):
    """A lobby request: its answer, or the Problem's message raised."""
    data = None if body is None else json.dumps(dict(body, protocol=1)).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        raise SystemExit(f"{method} {path}: {refused.code} {json.loads(refused.read())['error']}")


class WebSocket:
    """A client's WebSocket: text frames out (masked, as a client must), frames in."""

    def __init__(self, base, path):
        url = urllib.parse.urlparse(base)
        self.last_sent = 0.0
        secure = url.scheme == "https"
        port = url.port or (443 if secure else 80)
        self.sock = socket.create_connection((url.hostname, port), timeout=120)
        if secure:
            # wss:// behind a proxy holding the certificate (docs/SERVING.md).
            self.sock = ssl.create_default_context().wrap_socket(self.sock, server_hostname=url.hostname)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise SystemExit("the server closed the connection before the upgrade")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise SystemExit(f"no WebSocket: {head.decode(errors='replace')}")

    def _exactly(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("the connection ended")
            data += chunk
        return data

    def _send_frame(self, opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, message):
        # The server reads 20 frames a second from a connection (bursts of 40): kept under.
        wait = self.last_sent + 0.06 - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.last_sent = time.monotonic()
        self._send_frame(0x1, json.dumps(dict(message, protocol=1)).encode())

    def receive(self):
        """The next message (a dict), or None once the server closed (its reason printed)."""
        message = b""
        while True:
            first, second = self._exactly(2)
            opcode, n = first & 0x0F, second & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._exactly(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._exactly(8))
            payload = self._exactly(n)
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                print(f"closed ({code}): {payload[2:].decode(errors='replace')}")
                return None
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if first & 0x80:
                return json.loads(message)


def choose(view, me, rules):
    """The action for this view, if the seat `me` has one to make now (`rules`: the
    welcome's rule set)."""
    snapshot = view["snapshot"]
    if view["moves"]:
        return {"Move": {"player": me, "mv": random.choice(view["moves"])}}
    if snapshot["result"] is not None or snapshot["table_set_up"]:
        return None
    pending = snapshot["pending"]
    if pending is not None:
        # A combat waits for its defender's order: only then may anything else happen.
        return {"Defend": {"order": None}} if pending["defender"] == me else None
    offer = snapshot["offer"]
    if offer is not None:
        # An offer of sudden death waits for the other seat's answer.
        return {"Answer": {"accept": False}} if offer != me else None
    if snapshot["active"] != me:
        return None
    # Its turn: passed where the rules allow it, else letters traded back (one, a few times a
    # round: trades end no game), else the round given up.
    if rules["flow"]["may_pass"]:
        return "EndTurn"
    # A rack holds letters ({"Letter": "E"}) and captured tokens ({"Token": ...}).
    letters = [item["Letter"] for item in snapshot["players"][PLAYERS.index(me)]["rack"] if "Letter" in item]
    if rules["exchange"]["allowed"] and letters and snapshot["turn"] < 20:
        return {"Exchange": {"letters": letters[0]}}
    return "Forfeit"


def main():
    base, pack = sys.argv[1].rstrip("/"), sys.argv[2]
    level = sys.argv[3] if len(sys.argv) > 3 else "easy"
    random.seed(7)
    packs = lobby(base, "GET", "/api/packs")["packs"]
    mode = next(p for p in packs if p["id"] == pack)["modes"][0]
    names = mode["seat_names"]
    made = lobby(
        base,
        "POST",
        "/api/matches",
        {"pack": pack, "mode": mode["id"], "seats": {n: {"kind": "ai", "level": level} for n in names[1:]}},
    )
    taken = lobby(base, "POST", f"/api/matches/{made['id']}/seats", {"seat": names[0], "name": "docs bot"})
    me = PLAYERS[0]
    print(f"match {made['id']} of {pack}:{mode['id']}: I am {taken['seat']} ({me})")
    ws = WebSocket(base, f"/api/matches/{made['id']}/play")
    ws.send({"type": "hello", "token": taken["token"], "seen": None})
    acted, rules = 0, None
    # The view acted on: a view already on its way when the action went is older, let pass.
    acted_at = -1
    while True:
        message = ws.receive()
        if message is None:
            raise SystemExit("the connection closed before the match was over")
        kind = message["type"]
        if kind == "seats" and message["match"]["state"] == "over":
            ended = message["match"]["ended"]
            print(f"over after {acted} actions of mine: winner {ended['winner']}, {ended['why']}")
            return
        if kind == "error":
            print(f"error: {message['message']}")
        if kind == "welcome":
            rules = message["rules"]
        if kind == "refused":
            # Nothing changed. Chosen from a view the game had moved on from (an AI acted
            # meanwhile): the next view comes. Else the rules said no to the bot's trade:
            # it gives the round up.
            print(f"refused: {message['message']}")
            if "moved on" not in message["message"]:
                ws.send({"type": "act", "action": "Forfeit"})
            continue
        if kind != "view" or message["actions"] <= acted_at:
            continue
        snapshot = message["snapshot"]
        if snapshot["result"] is not None:
            # A round is over; in a match of rounds the next begins once everyone is ready
            # (the match may be decided before its last round: a `seats` frame then says so).
            if len(snapshot["earlier_rounds"]) + 1 < rules["match"]["rounds"]:
                ws.send({"type": "next"})
            continue
        action = choose(message, me, rules)
        if action is not None:
            # `after`: played only if the game is still where this view saw it.
            ws.send({"type": "act", "action": action, "after": message["actions"]})
            acted, acted_at = acted + 1, message["actions"]


if __name__ == "__main__":
    main()
