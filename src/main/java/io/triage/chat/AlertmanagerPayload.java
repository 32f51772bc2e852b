package io.triage.chat;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What Prometheus Alertmanager posts to a webhook receiver (payload {@code "version": "4"}), read strictly:
 * anything that is not that shape is refused with a message that says where, never half-read.
 *
 * @param version always {@code "4"}
 * @param groupKey the key that identifies the alert group, or empty
 * @param truncatedAlerts how many alerts Alertmanager left out of this payload ({@code max_alerts}), 0 when none
 * @param receiver the receiver's name in Alertmanager's configuration
 * @param status {@code firing} or {@code resolved}: the group's status
 * @param alerts the alerts of the group, in Alertmanager's order
 * @param groupLabels the labels the group is grouped by
 * @param commonLabels the labels every alert of the group has
 * @param commonAnnotations the annotations every alert of the group has
 * @param externalURL the Alertmanager's own address, or empty
 */
public record AlertmanagerPayload(String version, String groupKey, int truncatedAlerts, String receiver,
                                  String status, List<Alert> alerts, Map<String, String> groupLabels,
                                  Map<String, String> commonLabels, Map<String, String> commonAnnotations,
                                  String externalURL) {

    /** The label that names the scraped target in Prometheus: {@code host:port}. */
    public static final String DEFAULT_HOST_LABEL = "instance";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\\.?");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}(%[A-Za-z0-9_.-]{1,32})?");

    /**
     * One alert.
     *
     * @param status {@code firing} or {@code resolved}
     * @param labels its labels (the target's host is in one of them, {@code instance} by default)
     * @param annotations its annotations, may be empty
     * @param startsAt when it started firing, or null when the payload does not say
     * @param endsAt when it ended (a firing alert carries a placeholder in the past or future), or null
     * @param generatorURL the link to the expression that fired, or empty
     * @param fingerprint Alertmanager's identity of the alert, or empty
     */
    public record Alert(String status, Map<String, String> labels, Map<String, String> annotations, Instant startsAt,
                        Instant endsAt, String generatorURL, String fingerprint) {
        public boolean firing() {
            return "firing".equals(status);
        }
    }

    public AlertmanagerPayload {
        alerts = List.copyOf(alerts);
        groupLabels = Collections.unmodifiableMap(new LinkedHashMap<>(groupLabels));
        commonLabels = Collections.unmodifiableMap(new LinkedHashMap<>(commonLabels));
        commonAnnotations = Collections.unmodifiableMap(new LinkedHashMap<>(commonAnnotations));
    }

    /** @throws IllegalArgumentException when the text is not JSON or not an Alertmanager webhook payload */
    public static AlertmanagerPayload parse(String json) {
        if (json == null || json.isBlank()) {
            throw new IllegalArgumentException("the Alertmanager payload is empty");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the Alertmanager payload is not JSON: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")"));
        }
        return parse(root);
    }

    /** @throws IllegalArgumentException when the tree is not an Alertmanager webhook payload */
    public static AlertmanagerPayload parse(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the Alertmanager payload must be a JSON object");
        }
        String version = text(root, "version", "", true);
        if (!version.equals("4")) {
            throw new IllegalArgumentException("unsupported Alertmanager payload version \"" + printable(version)
                    + "\" (this receiver reads version \"4\")");
        }
        JsonNode list = root.get("alerts");
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException("the Alertmanager payload has no \"alerts\" array");
        }
        List<Alert> alerts = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            alerts.add(alert(list.get(i), "alerts[" + i + "]"));
        }
        JsonNode truncated = root.get("truncatedAlerts");
        int t = 0;
        if (truncated != null && !truncated.isNull()) {
            if (!truncated.canConvertToInt() || !truncated.isIntegralNumber() || truncated.intValue() < 0) {
                throw new IllegalArgumentException("\"truncatedAlerts\" must be a count (a whole number, 0 or more)");
            }
            t = truncated.intValue();
        }
        return new AlertmanagerPayload(version, text(root, "groupKey", "", false), t,
                text(root, "receiver", "", false), status(root, ""), alerts,
                labels(root.get("groupLabels"), "groupLabels", false),
                labels(root.get("commonLabels"), "commonLabels", false),
                labels(root.get("commonAnnotations"), "commonAnnotations", false),
                text(root, "externalURL", "", false));
    }

    /** The hosts of the firing alerts, from {@value #DEFAULT_HOST_LABEL}. */
    public List<String> hosts() {
        return hosts(DEFAULT_HOST_LABEL);
    }

    /**
     * The host of each firing alert, from the given label: port stripped ({@code gpu-node-3:9100} →
     * {@code gpu-node-3}, {@code [fe80::1]:9100} → {@code fe80::1}), a URL's host taken
     * ({@code http://gpu-node-3:8000/metrics} → {@code gpu-node-3}), in the alerts' order, each once
     * (names compared without case). Resolved alerts are skipped, and so are firing alerts whose label
     * is missing or does not hold a host name or address: {@link #skipped(String)} says which and why.
     */
    public List<String> hosts(String label) {
        checkLabel(label);
        Set<String> seen = new LinkedHashSet<>();
        List<String> out = new ArrayList<>();
        for (Alert a : alerts) {
            if (a.firing()) {
                hostOf(a.labels().get(label)).ifPresent(h -> {
                    if (seen.add(h.toLowerCase(Locale.ROOT))) {
                        out.add(h);
                    }
                });
            }
        }
        return List.copyOf(out);
    }

    /** Why each firing alert gave no host for the label: one line per alert, empty when every one did. */
    public List<String> skipped(String label) {
        checkLabel(label);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < alerts.size(); i++) {
            Alert a = alerts.get(i);
            if (!a.firing()) {
                continue;
            }
            String v = a.labels().get(label);
            String name = a.labels().getOrDefault("alertname", "");
            String which = "alerts[" + i + "]" + (name.isEmpty() ? "" : " (" + printable(name) + ")");
            if (v == null) {
                out.add(which + " has no label \"" + printable(label) + "\"");
            } else if (hostOf(v).isEmpty()) {
                out.add(which + ": label \"" + printable(label) + "\" is not a host name or address: \""
                        + printable(v) + "\"");
            }
        }
        return List.copyOf(out);
    }

    /**
     * The host in a label's value, or empty when it holds none: a name or an address, with any port,
     * brackets, URL scheme, user and path taken off. A name may not start with {@code -} (it could
     * reach a command line as an option) and holds only letters, digits, {@code - _ .}.
     */
    public static Optional<String> hostOf(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String v = value.strip();
        int scheme = v.indexOf("://");
        if (scheme > 0 && v.substring(0, scheme).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
            v = v.substring(scheme + 3);
            int end = v.length();
            for (char c : new char[]{'/', '?', '#'}) {
                int i = v.indexOf(c);
                if (i >= 0) {
                    end = Math.min(end, i);
                }
            }
            v = v.substring(0, end);
            int at = v.lastIndexOf('@');
            if (at >= 0) {
                v = v.substring(at + 1);
            }
        }
        if (v.startsWith("[")) {
            int close = v.indexOf(']');
            if (close < 0) {
                return Optional.empty();
            }
            String rest = v.substring(close + 1);
            if (!rest.isEmpty() && !(rest.startsWith(":") && validPort(rest.substring(1)))) {
                return Optional.empty();
            }
            String inside = v.substring(1, close);
            return inside.contains(":") && IPV6.matcher(inside).matches() ? Optional.of(inside) : Optional.empty();
        }
        int colons = (int) v.chars().filter(c -> c == ':').count();
        if (colons == 1) {
            int c = v.indexOf(':');
            if (!validPort(v.substring(c + 1))) {
                return Optional.empty();
            }
            v = v.substring(0, c);
        } else if (colons > 1) {
            return IPV6.matcher(v).matches() ? Optional.of(v) : Optional.empty();
        }
        return HOST_NAME.matcher(v).matches() && !v.startsWith("-") ? Optional.of(v) : Optional.empty();
    }

    private static boolean validPort(String p) {
        return PORT.matcher(p).matches() && Integer.parseInt(p) >= 1 && Integer.parseInt(p) <= 65535;
    }

    private static void checkLabel(String label) {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("the label that names the host must not be empty");
        }
    }

    private static Alert alert(JsonNode a, String where) {
        if (a == null || !a.isObject()) {
            throw new IllegalArgumentException(where + " must be a JSON object");
        }
        JsonNode labels = a.get("labels");
        if (labels == null || labels.isNull()) {
            throw new IllegalArgumentException(where + " has no \"labels\"");
        }
        return new Alert(status(a, where + "."), labels(labels, where + ".labels", true),
                labels(a.get("annotations"), where + ".annotations", false),
                time(a, "startsAt", where), time(a, "endsAt", where),
                text(a, "generatorURL", where + ".", false), text(a, "fingerprint", where + ".", false));
    }

    private static String status(JsonNode n, String where) {
        String s = text(n, "status", where, true);
        if (!s.equals("firing") && !s.equals("resolved")) {
            throw new IllegalArgumentException(where + "status must be \"firing\" or \"resolved\", not \""
                    + printable(s) + "\"");
        }
        return s;
    }

    private static Instant time(JsonNode n, String field, String where) {
        String s = text(n, field, where + ".", false);
        if (s.isEmpty()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(where + "." + field + " is not an RFC 3339 time: \"" + printable(s) + "\"");
        }
    }

    private static String text(JsonNode n, String field, String where, boolean required) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new IllegalArgumentException((where.isEmpty() ? "the Alertmanager payload" : where.substring(0, where.length() - 1))
                        + " has no \"" + field + "\"");
            }
            return "";
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException(where + field + " must be a string");
        }
        return v.textValue();
    }

    private static Map<String, String> labels(JsonNode n, String where, boolean required) {
        if (n == null || n.isNull()) {
            if (required) {
                throw new IllegalArgumentException(where + " is missing");
            }
            return Map.of();
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException(where + " must be an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException(where + "." + printable(e.getKey()) + " must be a string");
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return Collections.unmodifiableMap(out);
    }

    /** A value quoted in an error message: control characters visible, at most 80 characters. */
    private static String printable(String s) {
        String v = Visible.text(s, false);
        return v.length() <= 80 ? v : v.substring(0, 79) + "…";
    }
}
