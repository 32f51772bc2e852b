import com.sun.net.httpserver.HttpServer;

import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * A stand-in inference server for end-to-end tests: answers GET /health with 200 and writes
 * SGLang-shaped log lines (argument dump, ready banner, access lines). Run as
 * {@code java HealthServer.java --port N --log FILE}.
 */
public class HealthServer {
    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[1]);
        PrintWriter log = new PrintWriter(new FileWriter(args[3], true), true);
        DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        log.println("[" + LocalDateTime.now().format(f) + "] server_args=ServerArgs(model_path='demo/tiny', host='127.0.0.1', port="
                + port + ", tp_size=1, moe_runner_backend='flashinfer_cutlass', log_level='info')");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 16);
        server.createContext("/health", ex -> {
            ex.sendResponseHeaders(200, -1);
            ex.close();
            log.println("INFO:     127.0.0.1:" + ex.getRemoteAddress().getPort() + " - \"GET /health HTTP/1.1\" 200 OK");
        });
        server.start();
        log.println("[" + LocalDateTime.now().format(f) + "] The server is fired up and ready to roll!");
    }
}
