"""Many seeded games -> statistics: runs on local processes or Ray, intervals, records, comparisons, plots.

Along the pipeline: `runner` plays batches of seeded games into per-game records; `records` writes
them as rows; `stats` holds the interval arithmetic; `summary` turns one run's records into its
statistics; `simulation` drives a run; `compare` pairs two runs game by game; `report` and `plots`
present them.
"""
