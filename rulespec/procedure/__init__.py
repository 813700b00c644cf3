"""The lowered form of the hand: its phases (bid, raise, exchange, play the tricks, score, game end) written
once as plain Python (``bidding``, ``card_play``, ``scoring``, ``whole_hand``, in the subset ``lang`` names),
with a hole for each rule; ``form`` reads and lowers it per ruleset and back end, ``python`` writes the scalar
steps and the whole-hand loop from it.  The compiled, array and search back ends write theirs from the same
lowering (``fast/native_hand``, ``fast/array_hand``, ``solve/generated``, ``solve/native_source``)."""
