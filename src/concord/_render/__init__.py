"""Results → the records, rows and drawings the CLI, the plots and the report share."""
