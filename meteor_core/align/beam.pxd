# C types for the compiled build of beam.py (Cython reads this file; Python never does). The
# search's keys are C long long: align_meteor_beam only calls _search when they fit (_keys_fit).
import cython

@cython.locals(base=cython.longlong, uniform=cython.bint, common_last=cython.Py_ssize_t,
               common_busy=cython.Py_ssize_t, j=cython.Py_ssize_t, i=cython.Py_ssize_t, nh=cython.Py_ssize_t,
               nr=cython.Py_ssize_t, gain=cython.longlong, key=cython.longlong, last=cython.Py_ssize_t,
               busy=cython.Py_ssize_t, opened=cython.longlong, child=cython.longlong, bar=cython.longlong,
               most=cython.longlong, recount=cython.Py_ssize_t, end=cython.Py_ssize_t, after=cython.Py_ssize_t,
               d=cython.longlong, single=cython.bint)
cpdef tuple _search(list per_ref, list fixed, object budget, long long chunk, long long cover)
