// Identity resolution, mapping, the plan (the diff) and its reports.
