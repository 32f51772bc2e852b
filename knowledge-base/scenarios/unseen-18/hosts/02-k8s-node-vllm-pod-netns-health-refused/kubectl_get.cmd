kubectl get pods -A -o wide --field-selector spec.nodeName=gpu-node-14
