"""verl GRPO recipes as reviewed YAML data files (the loader arrives with `ascendrl run`)."""
