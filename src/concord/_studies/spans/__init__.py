"""Studies of spans that consume a coefficient: token agreement (spans painted on a grid)."""
