"""Mailbox's Python client: `Mailbox(base_url, key)`, one method per tool, typed answers, MailboxError.

    from mailbox_client import Mailbox
    mailbox = Mailbox()  # MAILBOX_URL (default http://127.0.0.1:8080) and MAILBOX_KEY
    inbox = mailbox.create_inbox(username="agent-python", display_name="Agent Python")
"""

from ._transport import NOT_GIVEN, MailboxError, NotGiven
from .client import TOOLS, Mailbox, __version__

__all__ = ["Mailbox", "MailboxError", "NOT_GIVEN", "NotGiven", "TOOLS", "__version__"]
