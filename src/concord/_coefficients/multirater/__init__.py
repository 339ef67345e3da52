"""Many raters: percent agreement, Fleiss, Gwet, Brennan–Prediger, Conger and Light."""
