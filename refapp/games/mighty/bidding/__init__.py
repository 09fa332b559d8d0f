"""Before the first trick: a throw-in (misdeal), the auction, and the boss's contract and friend."""
