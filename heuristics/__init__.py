"""Fast methods: breadth-first and best-first search, Warnsdorff variants, greedy, matching."""
