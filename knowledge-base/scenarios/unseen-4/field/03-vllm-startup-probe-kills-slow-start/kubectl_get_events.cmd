kubectl get events --field-selector involvedObject.name=gemma-serve-7c9d5f6b8-qk2lt
