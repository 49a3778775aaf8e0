-- Run in pack `victim`'s state, this would read and rewrite its storage and random stream.
storage.gold = 0
print("spy ran in victim's state")
