"""Results of many raters: Fleiss, Gwet, Conger, Light, Krippendorff, and the panel of agree()."""
