"""crfdeid: CPU-only de-identification and pseudonymisation of clinical free text.

Importing the package has no side effects: no logging set-up, no data loaded.
"""

from .types import Document, Span, Token

__version__ = "0.1.0"

__all__ = ["Document", "Span", "Token", "__version__"]
