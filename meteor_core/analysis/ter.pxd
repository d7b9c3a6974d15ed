# C types for the compiled build of ter.py (Cython reads this file; Python never does): the beam
# edit distance's loop on arrays of 64-bit costs and one-byte operations. Costs stay below
# INFINITY + a sentence's length (10**16 + 400), far inside a long long.
import cython

@cython.locals(n_hyp=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t, low=cython.Py_ssize_t,
               high=cython.Py_ssize_t, diagonal=cython.Py_ssize_t, beam=cython.Py_ssize_t, ratio=cython.double,
               best=cython.longlong, up=cython.longlong, left=cython.longlong, word=cython.longlong,
               best_op=cython.uchar, step=cython.uchar, words=cython.longlong[:], refs=cython.longlong[:],
               cost=cython.longlong[:], previous_cost=cython.longlong[:], op=cython.uchar[:])
cpdef tuple _edit_distance(list hyp, Py_ssize_t n_ref, object ref, Py_ssize_t start, list rows_cost, list rows_op)

@cython.locals(n_hyp=cython.Py_ssize_t, n_ref=cython.Py_ssize_t, start_h=cython.Py_ssize_t, start_r=cython.Py_ssize_t,
               length=cython.Py_ssize_t, hyp=cython.longlong[:], ref=cython.longlong[:])
cpdef list _shifted_pairs(object hyp_words, object ref_words)
