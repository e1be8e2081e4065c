"""Languages: the Universal Declaration of Human Rights in 20 languages and the token tax measures."""
