last -F -n 4 akim
