"""The exception of the iribulk package (pure Python, so that it pickles and subclasses well)."""

from __future__ import annotations

from typing import Optional


class IriError(ValueError):
    """An input that iribulk cannot convert.

    Attributes:
        code: the CLI's stable error code, such as ``"bad-percent"`` or ``"idna"``.
        column: 1-based byte column (in the UTF-8 input) where the problem starts.
        message: a one-line English explanation.
        row: for batch functions with ``on_error="fail"``, the index of the row; else None.
    """

    def __init__(self, code: str, column: int, message: str, row: Optional[int] = None):
        super().__init__(code, column, message, row)
        self.code = code
        self.column = column
        self.message = message
        self.row = row

    def __str__(self) -> str:
        where = f"row {self.row}, " if self.row is not None else ""
        return f"{self.code} at {where}column {self.column}: {self.message}"

    def __reduce__(self):
        return (type(self), (self.code, self.column, self.message, self.row))
