kubectl logs gemma-serve-7c9d5f6b8-qk2lt --previous
