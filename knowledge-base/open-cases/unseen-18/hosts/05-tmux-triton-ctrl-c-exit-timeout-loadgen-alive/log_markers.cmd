grep -n -E 'successfully loaded|Started HTTPService|Started GRPC|Signal \(|Waiting for in-flight|unloading models|failed|Error|^E[0-9]{4}' /home/ubuntu/logs/triton-0602.log | tail -30
