"""numba: every compiled function of the search is ``njit(cache=True)``, so a
process after the first loads machine code from numba's on-disk cache instead of compiling.

``borrow(x)``: the same arrays (alone or in tuples, nested), without their reference count.
numba counts a reference (an atomic increment, then decrement) each time an array is bound to
a variable: taken out of a tuple, passed to an inlined function, sliced to a row. In the
playout's loop that was most of its time (thousands of atomic operations a playout, on
counters the search threads share). A borrowed array has no counter: the increments see none
and return. Borrow only arrays that outlive the borrowed copies (a compiled function's
arguments, which its caller holds until it returns), never arrays made in the same function.

The search loop (``search._run``) and the playout allocate nothing and are compiled with
``_nrt=False``: numba emits no reference counting in them at all, and compiles the functions
they call the same way (one that allocates then fails to compile: nothing slips through). The
arrays they use are made beforehand (``choose.scratch``).
"""

from __future__ import annotations

from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["borrow", "njit"]


def _borrowed(context, builder, typ, value):
    if isinstance(typ, types.Array):
        ary = context.make_array(typ)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        return ary._getvalue()
    if isinstance(typ, types.BaseTuple):
        items = [
            _borrowed(context, builder, t, builder.extract_value(value, i))
            for i, t in enumerate(typ)
        ]
        return context.make_tuple(builder, typ, items)
    return value


@intrinsic
def borrow(typingctx, x):
    def codegen(context, builder, signature, args):
        return _borrowed(context, builder, signature.args[0], args[0])

    return x(x), codegen
