"""How the client talks to the service: one JSON POST per call over urllib, its retries and its errors.

Standard library only. A call is retried only when that is safe: a read-only tool, or a write that
carries an idempotency key (send_email, reply_to_thread: the client makes one when none is given, and
sends it as the `Idempotency-Key` header on every attempt, so a retry never sends twice). It is retried
after a connection failure or a timeout, and after 429, 502, 503 and 504, waiting what `Retry-After`
says (429 and 503) or a short growing delay.
"""

import http.client
import json
import os
import random
import time
import urllib.error
import urllib.request
import uuid
from email.utils import parsedate_to_datetime
from typing import Any, Dict, Mapping, NamedTuple, Optional, Tuple

DEFAULT_URL = "http://127.0.0.1:8080"
#: Statuses after which trying again helps: the service said so (429, 503) or a proxy did (502, 504).
RETRY_STATUSES = frozenset({429, 502, 503, 504})


class NotGiven:
    """The default of a parameter that also takes None (null): the parameter is left out."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = NotGiven()


class ToolInfo(NamedTuple):
    """What the transport needs of a tool: whether it only reads, whether it takes an idempotency key."""

    read_only: bool
    idempotency_key: bool


def body(required: Dict[str, Any], optional: Dict[str, Any], nullable: Dict[str, Any]) -> Dict[str, Any]:
    """A tool's JSON body from a method's arguments: optional ones left out when None (NOT_GIVEN for nullable ones)."""
    params = dict(required)
    params.update((key, value) for key, value in optional.items() if value is not None)
    params.update((key, value) for key, value in nullable.items() if value is not NOT_GIVEN)
    return params


class MailboxError(Exception):
    """Every failure of a call: the service's refusal, or no usable answer at all.

    `code` is the service's error code (docs/errors.md: `invalid_argument`, `not_found`...) or, when the
    service gave no answer, `connection_failed` (then `status` is None); an answer that is no JSON
    refusal (a proxy's page) gives `http_<status>`. `message` is the service's French sentence, which
    ends with what to do; `hint` its details (`{"parameter": "username"}`), or None; `status` the HTTP
    status; `retry_after` the seconds `Retry-After` asked for, or None.
    """

    def __init__(
        self,
        code: str,
        message: str,
        hint: Optional[Dict[str, Any]] = None,
        status: Optional[int] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.hint = hint
        self.status = status
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"MailboxError(code={self.code!r}, status={self.status!r}, message={self.message!r}, hint={self.hint!r})"


def _retry_after(value: Optional[str]) -> Optional[float]:
    """`Retry-After` in seconds: a number of seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _refusal(status: int, headers: Mapping[str, str], raw: bytes) -> MailboxError:
    retry_after = _retry_after(headers.get("Retry-After"))
    try:
        error = json.loads(raw.decode("utf-8"))["error"]
        return MailboxError(error["code"], error["message"], error.get("hint"), status, retry_after)
    except (ValueError, KeyError, TypeError):
        return MailboxError(f"http_{status}", raw.decode("utf-8", "replace")[:200], None, status, retry_after)


class Transport:
    """The HTTP side of the client (the generated `Mailbox` adds one method per tool).

    `timeout`: seconds a call may wait for its answer (workspace_events holds up to 18 s).
    `max_retries`: attempts after the first, where a retry is safe. `max_retry_wait`: the longest
    `Retry-After` waited for; a longer one raises at once (MailboxError.retry_after tells it).
    """

    #: Tool name -> ToolInfo; the generated client fills it. A tool missing here is never retried.
    _tools: Mapping[str, ToolInfo] = {}

    def __init__(
        self,
        base_url: Optional[str] = None,
        key: Optional[str] = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_retry_wait: float = 60.0,
    ) -> None:
        self.base_url = (base_url or os.environ.get("MAILBOX_URL") or DEFAULT_URL).rstrip("/")
        self.key = key if key is not None else os.environ.get("MAILBOX_KEY")
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait

    def call(self, tool: str, params: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """Calls a tool by its name with a dict of parameters: for names known only at run time."""
        return self._call(tool, dict(params or {}))

    def _call(self, tool: str, params: Dict[str, Any]) -> Any:
        info = self._tools.get(tool, ToolInfo(read_only=False, idempotency_key=False))
        headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "mailbox-python"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        if info.idempotency_key:
            # The same key on every attempt: a retry after a lost answer is answered the first message.
            headers["Idempotency-Key"] = str(params.get("idempotency_key") or uuid.uuid4())
        safe = info.read_only or info.idempotency_key
        url = f"{self.base_url}/v1/{tool}"
        data = json.dumps(params).encode("utf-8")
        attempt = 0
        while True:
            try:
                status, answer_headers, raw = self._post(url, data, headers)
            except (OSError, http.client.HTTPException) as error:
                if safe and attempt < self.max_retries:
                    time.sleep(self._backoff(attempt))
                    attempt += 1
                    continue
                reason = getattr(error, "reason", None) or error
                raise MailboxError(
                    "connection_failed",
                    f"cannot reach the service at {url} ({reason}). Is it running? `npm run dev` or "
                    f"`npm start` starts it; MAILBOX_URL (default {DEFAULT_URL}) says where it is.",
                ) from error
            if status == 200:
                return json.loads(raw.decode("utf-8"))
            refusal = _refusal(status, answer_headers, raw)
            wait = refusal.retry_after if refusal.retry_after is not None else self._backoff(attempt)
            if status in RETRY_STATUSES and safe and attempt < self.max_retries and wait <= self.max_retry_wait:
                time.sleep(wait)
                attempt += 1
                continue
            raise refusal

    def _post(self, url: str, data: bytes, headers: Dict[str, str]) -> Tuple[int, Mapping[str, str], bytes]:
        request = urllib.request.Request(url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.headers, error.read()

    @staticmethod
    def _backoff(attempt: int) -> float:
        """0.5 s, 1 s, 2 s... at most 8 s, with a little jitter so that many clients do not come back at once."""
        return min(8.0, 0.5 * 2**attempt) * (1 + random.random() / 4)
