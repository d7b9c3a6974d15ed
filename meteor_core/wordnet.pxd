# C types for the compiled build of wordnet.py (Cython reads this file; Python never does): the
# index's dict, the word and the forms as exact str, the keys as tuples and lists, so that the
# rules' loop calls the dict's get, endswith, slicing and concatenation in C. The index's values
# are tuples (WordNet._read_index).
import cython

@cython.locals(rules=tuple, bases=list, keys=list, seen=set, old=str, new=str, form=str, form_keys=tuple,
               n_own=cython.Py_ssize_t)
cpdef list _regular_keys(dict keys_of, str word, tuple own)
