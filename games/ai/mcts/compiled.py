"""numba, when installed: every compiled function of the search is ``njit(cache=True)``, so a
process after the first loads machine code from numba's on-disk cache instead of compiling."""

from __future__ import annotations

try:  # numba is optional: without it, Expert keeps its pure-Python search
    from numba import njit

    AVAILABLE = True
except ImportError:  # pragma: no cover - exercised by the fallback test with numba hidden
    AVAILABLE = False

    def njit(*args, **kwargs):
        def wrap(f):
            return f

        return wrap
