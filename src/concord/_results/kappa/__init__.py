"""Results of two raters: Cohen, Scott, QWK, the category tests, means and groups of kappas."""
