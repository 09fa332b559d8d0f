"""The play: a trick decided, a hand's tricks refereed and totalled, who held the mighty."""
