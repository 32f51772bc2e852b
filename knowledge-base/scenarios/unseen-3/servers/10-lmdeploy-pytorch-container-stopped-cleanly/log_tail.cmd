docker logs --tail 60 lmdeploy-glm4 2>&1
