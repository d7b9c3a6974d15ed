"""A line-by-line Python port of Meteor 1.5's aligner and scorer, as slow and plain as the Java
(edu.cmu.meteor.aligner.Aligner.align/resolve, the four matchers, MeteorScorer.getMeteorStats
and computeMetrics). Tests hold meteor_core's fast beam to it: same alignment, same statistics.

Not part of meteor_core: it keeps the Java's shape (lists of Match objects per reference position,
whole partial alignments copied at every step) on purpose, so that it can be read against it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

EXACT, STEM, SYNONYM, PARAPHRASE = "exact", "stem", "synonym", "paraphrase"
BEAM_SIZE = 40


@dataclass
class JarMatch:
    start: int  # reference (line2)
    length: int
    match_start: int  # hypothesis (line1)
    match_length: int
    module: int  # index among the chosen modules


@dataclass
class Partial:
    matches: list
    used1: list
    used2: list
    matches1: int = 0
    matches2: int = 0
    chunks: int = 0
    idx: int = 0
    last_match_end: int = -1
    distance: int = 0

    def copy(self) -> "Partial":
        return Partial(list(self.matches), list(self.used1), list(self.used2), self.matches1, self.matches2,
                       self.chunks, self.idx, self.last_match_end, self.distance)

    def is_used(self, m: JarMatch) -> bool:
        return any(self.used2[m.start:m.start + m.length]) or any(self.used1[m.match_start:m.match_start + m.match_length])

    def set_used(self, m: JarMatch) -> None:
        for k in range(m.length):
            self.used2[m.start + k] = True
        for k in range(m.match_length):
            self.used1[m.match_start + k] = True


def _java_int(x: float) -> int:
    return int(x)  # (int) cast of a non-negative double: truncation


@dataclass
class JarAlignment:
    words1: list
    words2: list
    matches: list  # per reference position: JarMatch or None
    modules: tuple
    content1: list = field(default_factory=list)
    content2: list = field(default_factory=list)
    function1: list = field(default_factory=list)
    function2: list = field(default_factory=list)
    function_words1: int = 0
    function_words2: int = 0
    chunks: int = 0

    def as_tuples(self):
        """(hyp start, ref start, module name, hyp length, ref length), by hypothesis position."""
        return sorted((m.match_start, m.start, self.modules[m.module], m.match_length, m.length)
                      for m in self.matches if m is not None)


def align(words1, words2, modules, stem=None, synsets=None, paraphrases=None, function_words=frozenset()):
    """words1 = hypothesis, words2 = reference (lowercased tokens). stem: word -> stem;
    synsets: word -> set of synset ids (own + stem synsets); paraphrases: list of
    (ref phrase tuple, paraphrase tuple) in table order."""
    n1, n2 = len(words1), len(words2)
    per_ref = [[] for _ in range(n2)]
    cov1, cov2 = [0] * n1, [0] * n2

    def add(m):
        per_ref[m.start].append(m)
        for k in range(m.match_length):
            cov1[m.match_start + k] += 1
        for k in range(m.length):
            cov2[m.start + k] += 1

    used_modules = 1 if words1 == words2 else len(modules)
    for mod_num in range(used_modules):
        module = modules[mod_num]
        if module == EXACT:
            for j in range(n2):
                for i in range(n1):
                    if words1[i] == words2[j]:
                        add(JarMatch(j, 1, i, 1, mod_num))
        elif module == STEM:
            s1, s2 = [stem(w) for w in words1], [stem(w) for w in words2]
            for j in range(n2):
                for i in range(n1):
                    if s1[i] == s2[j] and words1[i] != words2[j]:
                        add(JarMatch(j, 1, i, 1, mod_num))
        elif module == SYNONYM:
            y1, y2 = [synsets(w) for w in words1], [synsets(w) for w in words2]
            for j in range(n2):
                for i in range(n1):
                    if (y1[i] & y2[j]) and words1[i] != words2[j]:
                        add(JarMatch(j, 1, i, 1, mod_num))
        elif module == PARAPHRASE:
            _paraphrase_matches(words1, words2, paraphrases, mod_num, add)

    start = Partial([None] * n2, [False] * n1, [False] * n2)
    for j in range(n2):
        if len(per_ref[j]) == 1:
            m = per_ref[j][0]
            overlap = any(cov2[j + k] != 1 for k in range(m.length)) or \
                any(cov1[m.match_start + k] != 1 for k in range(m.match_length))
            if not overlap:
                start.matches[j] = m
                start.set_used(m)
    best = _resolve(per_ref, start, modules)

    a = JarAlignment(list(words1), list(words2), best.matches, tuple(modules))
    f1 = [w.lower() in function_words for w in words1]
    f2 = [w.lower() in function_words for w in words2]
    a.function_words1, a.function_words2 = sum(f1), sum(f2)
    a.content1, a.content2 = [0] * len(modules), [0] * len(modules)
    a.function1, a.function2 = [0] * len(modules), [0] * len(modules)
    for m in best.matches:
        if m is not None:
            for k in range(m.match_length):
                (a.function1 if f1[m.match_start + k] else a.content1)[m.module] += 1
            for k in range(m.length):
                (a.function2 if f2[m.start + k] else a.content2)[m.module] += 1
    a.chunks = _count_chunks(best.matches)
    return a


def _paraphrase_matches(words1, words2, table, mod_num, add):
    """ParaphraseMatcher: table entries (ref phrase -> paraphrase) found both ways round."""
    by_first: dict = {}
    for k, (phrase, _) in enumerate(table):
        by_first.setdefault(phrase[0], []).append(k)

    def paths(words, start):  # ParaphraseTransducer.getPaths: by phrase length, then table order
        found = []
        for length in range(1, len(words) - start + 1):
            span = tuple(words[start:start + length])
            found += [(length, table[k][1]) for k in by_first.get(words[start], ()) if table[k][0] == span]
        return found

    for j in range(len(words2)):
        for length, para in paths(words2, j):
            for i in range(len(words1)):
                if tuple(words1[i:i + len(para)]) == para:
                    add(JarMatch(j, length, i, len(para), mod_num))
    for i in range(len(words1)):
        for length, para in paths(words1, i):
            for j in range(len(words2)):
                if tuple(words2[j:j + len(para)]) == para:
                    add(JarMatch(j, len(para), i, length, mod_num))


def _resolve(per_ref, start, modules):
    weights = [1.0 if m == EXACT else 0.5 for m in modules]  # MeteorScorer's aligner weights
    key = lambda p: (-(p.matches1 + p.matches2), p.chunks, p.distance)  # PARTIAL_COMPARE_TOTAL
    next_paths = [start]
    for current in range(len(per_ref) + 1):
        paths = sorted(next_paths, key=key)  # stable, as Collections.sort
        next_paths = []
        for path in paths[:BEAM_SIZE]:
            if current == len(per_ref):
                if path.last_match_end != -1:
                    path.chunks += 1
                next_paths.append(path)
                continue
            if path.used2[current]:
                if current < path.idx:
                    next_paths.append(path)
                elif path.matches[path.idx] is not None:
                    m = path.matches[path.idx]
                    path.matches1 = _java_int(path.matches1 + m.match_length * weights[m.module])
                    path.matches2 = _java_int(path.matches2 + m.length * weights[m.module])
                    if path.last_match_end != -1 and m.match_start != path.last_match_end:
                        path.chunks += 1
                    path.idx = m.start + m.length
                    path.last_match_end = m.match_start + m.match_length
                    path.distance += abs(m.start - m.match_start)
                    next_paths.append(path)
                continue
            for m in per_ref[current]:
                if path.is_used(m):
                    continue
                new = path.copy()
                new.set_used(m)
                new.matches[current] = m
                new.matches1 = _java_int(new.matches1 + m.match_length * weights[m.module])
                new.matches2 = _java_int(new.matches2 + m.length * weights[m.module])
                if new.last_match_end != -1 and m.match_start != new.last_match_end:
                    new.chunks += 1
                new.idx = m.start + m.length
                new.last_match_end = m.match_start + m.match_length
                path.distance += abs(m.start - m.match_start)  # sic: the parent's (Aligner.java)
                next_paths.append(new)
            if path.last_match_end != -1:
                path.chunks += 1
                path.last_match_end = -1
            path.idx += 1
            next_paths.append(path)
        if not next_paths:
            next_paths.append(paths[0])
    return sorted(next_paths, key=key)[0]


def _count_chunks(matches) -> int:
    chunks, idx, last = 0, 0, -1
    while idx < len(matches):
        m = matches[idx]
        if m is None:
            if last != -1:
                chunks += 1
                last = -1
            idx += 1
        else:
            if last != -1 and m.match_start != last:
                chunks += 1
            idx = m.start + m.length
            last = m.match_start + m.match_length
    return chunks + (last != -1)


def score(a: JarAlignment, weights, alpha, beta, gamma, delta) -> float:
    """MeteorScorer.computeMetrics, operation for operation (weights by module index)."""
    len1, len2 = len(a.words1), len(a.words2)
    wl1 = delta * (len1 - a.function_words1) + (1.0 - delta) * a.function_words1
    wl2 = delta * (len2 - a.function_words2) + (1.0 - delta) * a.function_words2
    wm1 = wm2 = 0.0
    for i, w in enumerate(weights):
        wm1 += a.content1[i] * w * delta
    for i, w in enumerate(weights):
        wm2 += a.content2[i] * w * delta
    for i, w in enumerate(weights):
        wm1 += a.function1[i] * w * (1.0 - delta)
    for i, w in enumerate(weights):
        wm2 += a.function2[i] * w * (1.0 - delta)
    total1 = sum(a.content1) + sum(a.function1)
    total2 = sum(a.content2) + sum(a.function2)
    try:
        p, r = wm1 / wl1, wm2 / wl2
        fmean = 1.0 / ((1.0 - alpha) / p + alpha / r)
    except ZeroDivisionError:
        return 0.0
    if total1 == len1 and total2 == len2 and a.chunks == 1:
        frag = 0.0
    else:
        frag = a.chunks / ((total1 + total2) / 2)
    s = fmean * (1.0 - gamma * math.pow(frag, beta))
    return max(s, 0.0)
