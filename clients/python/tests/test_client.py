"""The Python client against a live service (test/foundation/python-client.test.ts starts it).

MAILBOX_URL and MAILBOX_KEY name the service and the key of a verified space on a plan; the service's
rate limit is small (RATE_LIMIT_BURST 40, RATE_LIMIT_PER_SECOND 5) so that a test can reach it.
"""

import ast
import contextlib
import http.server
import io
import os
import re
import socket
import threading
import time
import unittest
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Callable, Dict

from mailbox_client import TOOLS, Mailbox, MailboxError

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = Path(__file__).resolve().parents[1] / "mailbox_client"


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def closed_port() -> int:
    """A loopback port nothing listens on: taken, then let go."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        return taken.getsockname()[1]


class LossyProxy:
    """A real HTTP hop in front of the service that loses the answers of the first `drops` calls of a tool:
    the service does the work, the client sees the connection close (an answer lost on the way)."""

    def __init__(self, upstream: str) -> None:
        self.drops: Dict[str, int] = {}
        self.seen: Dict[str, list] = {}
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                data = self.rfile.read(int(self.headers["Content-Length"]))
                tool = self.path.rsplit("/", 1)[-1]
                proxy.seen.setdefault(tool, []).append(self.headers.get("Idempotency-Key"))
                headers = {name: value for name, value in self.headers.items() if name.lower() not in ("host", "content-length")}
                request = urllib.request.Request(upstream + self.path, data=data, headers=headers, method="POST")
                try:
                    with urllib.request.urlopen(request) as answer:
                        status, answer_headers, raw = answer.status, answer.headers, answer.read()
                except urllib.error.HTTPError as refused:
                    status, answer_headers, raw = refused.code, refused.headers, refused.read()
                if proxy.drops.get(tool, 0) > 0:
                    proxy.drops[tool] -= 1
                    self.close_connection = True
                    return
                self.send_response(status)
                for name in ("Content-Type", "Retry-After"):
                    if answer_headers.get(name):
                        self.send_header(name, answer_headers[name])
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class SendAndRead(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.mailbox = Mailbox()
        cls.inbox = cls.mailbox.create_inbox(username=unique("python"), display_name="Client Python")

    def test_send_then_read_the_thread(self) -> None:
        key = unique("essai")
        sent = self.mailbox.send_email(
            inbox_id=self.inbox["id"], to=self.inbox["address"], subject="Essai Python", text="Bonjour du client Python.", test=True, idempotency_key=key
        )
        self.assertEqual(sent["status"], "queued")
        self.assertFalse(sent["replayed"])
        again = self.mailbox.send_email(
            inbox_id=self.inbox["id"], to=self.inbox["address"], subject="Essai Python", text="Bonjour du client Python.", test=True, idempotency_key=key
        )
        self.assertTrue(again["replayed"], "the same idempotency key: the same message")
        self.assertEqual(again["message"]["id"], sent["message"]["id"])

        thread = self.mailbox.get_thread(thread_id=sent["thread"]["id"])
        self.assertEqual(thread["thread"]["id"], sent["thread"]["id"])
        self.assertEqual([message["subject"] for message in thread["messages"]], ["Essai Python"])
        self.assertIn("Bonjour du client Python.", thread["messages"][0]["text"])
        listed = self.mailbox.list_threads(inbox_id=self.inbox["id"])
        self.assertIn(sent["thread"]["id"], [item["id"] for item in listed["items"]])

    def test_call_by_name(self) -> None:
        settings = self.mailbox.call("get_settings")
        self.assertEqual(settings["key"]["permissions"], ["send", "read", "approve", "manage_inboxes"])
        self.assertEqual(set(TOOLS), {name for name in dir(Mailbox) if name in TOOLS}, "one method per tool")


class Refusals(unittest.TestCase):
    def setUp(self) -> None:
        self.mailbox = Mailbox()

    def refusal(self, call: Callable[[], object]) -> MailboxError:
        with self.assertRaises(MailboxError) as caught:
            call()
        return caught.exception

    def test_one_exception_with_code_message_hint_and_status(self) -> None:
        error = self.refusal(lambda: self.mailbox.create_inbox(username="Majuscules", display_name="x"))
        self.assertEqual((error.code, error.status, error.hint), ("invalid_argument", 400, {"parameter": "username"}))
        self.assertTrue(error.message)
        self.assertTrue(str(error).startswith("invalid_argument: "))

        reserved = self.refusal(lambda: self.mailbox.create_inbox(username="support", display_name="Support"))
        self.assertEqual((reserved.code, reserved.status), ("reserved_username", 422))
        missing = self.refusal(lambda: self.mailbox.get_thread(thread_id="thr_00000000000000000000"))
        self.assertEqual((missing.code, missing.status), ("not_found", 404))
        stranger = self.refusal(lambda: Mailbox(key="mbx_inconnue").get_settings())
        self.assertEqual((stranger.code, stranger.status), ("unauthorized", 401))

    def test_no_service_at_the_address(self) -> None:
        url = f"http://127.0.0.1:{closed_port()}"
        error = self.refusal(lambda: Mailbox(url, "mbx_x", max_retries=1).get_settings())
        self.assertEqual((error.code, error.status), ("connection_failed", None))
        self.assertIn(f"{url}/v1/get_settings", error.message)
        self.assertIn("npm run dev", error.message)


class Retries(unittest.TestCase):
    def setUp(self) -> None:
        self.mailbox = Mailbox()
        self.proxy = LossyProxy(self.mailbox.base_url)
        self.addCleanup(self.proxy.close)
        self.through_proxy = Mailbox(self.proxy.url)

    def test_a_lost_answer_of_a_send_is_retried_with_the_same_idempotency_key(self) -> None:
        inbox = self.mailbox.create_inbox(username=unique("retry"), display_name="Reprise")
        self.proxy.drops["send_email"] = 1
        sent = self.through_proxy.send_email(inbox_id=inbox["id"], to=inbox["address"], subject="Perdu puis repris", text="Une fois.", test=True)
        keys = self.proxy.seen["send_email"]
        self.assertEqual(len(keys), 2, "sent, its answer lost, sent again")
        self.assertTrue(keys[0] and keys[0] == keys[1], "one Idempotency-Key on both attempts")
        self.assertTrue(sent["replayed"], "the second attempt is answered the first message")
        thread = self.mailbox.get_thread(thread_id=sent["thread"]["id"])
        self.assertEqual(len(thread["messages"]), 1, "sent once")

    def test_a_lost_answer_of_a_write_without_idempotency_key_is_not_retried(self) -> None:
        name = unique("audience")
        self.proxy.drops["create_audience"] = 1
        with self.assertRaises(MailboxError) as caught:
            self.through_proxy.create_audience(name=name)
        self.assertEqual(caught.exception.code, "connection_failed")
        self.assertEqual(len(self.proxy.seen["create_audience"]), 1, "not sent again")
        made = [audience for audience in self.mailbox.list_audiences()["items"] if audience["name"] == name]
        self.assertEqual(len(made), 1, "made once: the caller decides what to do")

    def test_a_lost_answer_of_a_read_is_retried(self) -> None:
        self.proxy.drops["get_settings"] = 2
        self.assertIn("space", self.through_proxy.get_settings())
        self.assertEqual(len(self.proxy.seen["get_settings"]), 3)

    def spend_the_budget(self, key: str) -> MailboxError:
        impatient = Mailbox(key=key, max_retries=0)
        with self.assertRaises(MailboxError) as caught:
            for _ in range(200):
                impatient.list_inboxes()
        return caught.exception

    def test_rate_limited_reads_wait_retry_after_writes_raise(self) -> None:
        key = self.mailbox.create_key(name=unique("debit"), permissions=["read", "send"])["api_key"]
        limited = self.spend_the_budget(key)
        self.assertEqual((limited.code, limited.status), ("rate_limited", 429))
        self.assertGreater(limited.retry_after, 0)

        # The budget refills while the write travels: spent again until the write meets the refusal.
        writer = Mailbox(self.proxy.url, key=key)
        for _ in range(5):
            self.spend_the_budget(key)
            self.proxy.seen.pop("create_audience", None)
            try:
                writer.create_audience(name=unique("trop-vite"))
            except MailboxError as refused:
                self.assertEqual(refused.code, "rate_limited")
                break
        else:
            self.fail("no write met the spent budget in 5 tries")
        self.assertEqual(len(self.proxy.seen["create_audience"]), 1, "a write without idempotency key is not retried")
        started = time.monotonic()
        self.assertIn("items", Mailbox(key=key).list_inboxes(), "a read waits Retry-After, then succeeds")
        self.assertLess(time.monotonic() - started, 10)


class AsWritten(unittest.TestCase):
    def run_example(self, code: str) -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "example", "exec"), {"__name__": "example"})
        return out.getvalue()

    def test_the_readme_example(self) -> None:
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        block = re.search(r"\n((?:    from mailbox_client import Mailbox\n)(?:    .*\n)+)", readme)
        self.assertIsNotNone(block, "README.md shows the Python example")
        code = "\n".join(line[4:] for line in block.group(1).splitlines())
        self.assertLessEqual(len(code.splitlines()), 5, "five lines")
        self.assertEqual(self.run_example(code).strip(), "Essai")

    def test_the_client_readme_example(self) -> None:
        readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
        code = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
        # As written, but for the service's address.
        code = code.replace('"http://127.0.0.1:8080"', repr(os.environ["MAILBOX_URL"]))
        self.assertIn("queued", self.run_example(code))

    def test_sources_are_python_3_9(self) -> None:
        for source in sorted(PACKAGE.glob("*.py")):
            ast.parse(source.read_text(encoding="utf-8"), str(source), feature_version=(3, 9))


if __name__ == "__main__":
    unittest.main()
