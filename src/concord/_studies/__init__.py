"""Studies built on the coefficients: a judge against humans and gold."""
