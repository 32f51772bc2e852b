package io.triage.facts;

/**
 * How the target's server kind serves, from the knowledge base ({@code serves:} of its markers file): what a
 * healthy server of this kind looks like, so rules do not read one kind's normal state as another's failure
 * (an idle Ollama holds no model on any GPU; llama-server's engine runs inside its HTTP process).
 *
 * @param server the server kind
 * @param port its default HTTP port
 * @param health the path that answers 200 only when it can serve
 * @param inProcessEngine true when the engine runs inside the front-end process (no separate worker processes)
 * @param onDemandModels true when models are loaded per request and unloaded when idle, so no model on any
 *                       GPU is the normal idle state
 * @param unavailable what a 503 from its health path means: {@code engine-dead} (vLLM answers 503 only once its engine
 *                    died), {@code loading} (llama-server while it loads its model), or empty when it says neither
 */
public record ServerTraits(String server, int port, String health, boolean inProcessEngine, boolean onDemandModels,
                           String unavailable) {
}
