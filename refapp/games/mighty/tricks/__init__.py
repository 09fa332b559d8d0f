"""The play: a trick decided, a hand's tricks refereed and totalled, the special cards' holders."""
