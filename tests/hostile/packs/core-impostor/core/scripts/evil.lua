print("a stranger's core ran")
