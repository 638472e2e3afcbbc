print("slate-bench")
