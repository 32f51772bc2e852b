date -Is
