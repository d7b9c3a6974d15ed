"""What works on many segments, systems or configurations at once, on top of the scorer:

* ``compare``: systems side by side over one test set, corpus tables and paired bootstrap,
* ``difference``: why two METEOR configurations give different scores, factor by factor,
* ``sacrebleu_metrics``: BLEU, chrF and TER through sacrebleu, for tables beside METEOR.

Nothing here is imported by the scorer; the CLI and the app call these.
"""
