package io.triage.knowledge;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plain binary form in which a loaded knowledge base is kept between runs ({@link KnowledgeBase#compact}): strings,
 * numbers, and lists and maps of them, each length-prefixed. Reading it back takes a few milliseconds where the YAML
 * files take a few hundred (parser and data binding, cold, every run). It holds data only, never a class name or code:
 * what it gives back is rebuilt through the same constructors as a load from YAML, regexes compiled again.
 */
public final class Compact {
    /** Most items a list or map of the form may declare: a knowledge base holds a few thousand entries in all. */
    static final int MAX_ITEMS = 1 << 20;

    private Compact() {
    }

    /** Writes the form. */
    public static final class Out {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 << 10);
        private final DataOutputStream out = new DataOutputStream(bytes);

        public Out str(String s) {
            try {
                if (s == null) {
                    out.writeInt(-1);
                } else {
                    byte[] b = s.getBytes(StandardCharsets.UTF_8);
                    out.writeInt(b.length);
                    out.write(b);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a byte array does not fail
            }
            return this;
        }

        public Out num(long v) {
            try {
                out.writeLong(v);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        public Out dbl(double v) {
            return num(Double.doubleToLongBits(v));
        }

        public Out bool(boolean v) {
            return num(v ? 1 : 0);
        }

        /** A nullable integer. */
        public Out optInt(Integer v) {
            bool(v != null);
            return v == null ? this : num(v);
        }

        /** A list of strings (null written as absent, read back as null). */
        public Out strs(java.util.Collection<String> l) {
            num(l == null ? -1 : l.size());
            if (l != null) {
                l.forEach(this::str);
            }
            return this;
        }

        /** A map of strings to strings, in its order (null as absent). */
        public Out strMap(Map<String, String> m) {
            num(m == null ? -1 : m.size());
            if (m != null) {
                m.forEach((k, v) -> str(k).str(v));
            }
            return this;
        }

        /** Bytes, length-prefixed. */
        public Out blob(byte[] b) {
            num(b.length);
            bytes.write(b, 0, b.length); // out holds no buffer of its own: straight to the same array
            return this;
        }

        /** The count of a list or map whose items the caller writes next. */
        public Out count(int n) {
            return num(n);
        }

        public byte[] bytes() {
            return bytes.toByteArray();
        }
    }

    /** Reads the form; every count and length is checked against what is left, so a bad form fails with an error. */
    public static final class In {
        private final byte[] all;
        private final DataInputStream in;

        public In(byte[] b) {
            this.all = b;
            this.in = new DataInputStream(new ByteArrayInputStream(b));
        }

        public String str() throws IOException {
            int n = in.readInt();
            if (n == -1) {
                return null;
            }
            if (n < 0 || n > in.available()) {
                throw new IOException("bad string length " + n);
            }
            return new String(in.readNBytes(n), StandardCharsets.UTF_8);
        }

        /** What {@link Out#blob} wrote. */
        public byte[] blob() throws IOException {
            long n = in.readLong();
            if (n < 0 || n > in.available()) {
                throw new IOException("bad length " + n);
            }
            return in.readNBytes((int) n);
        }

        public long num() throws IOException {
            return in.readLong();
        }

        public int integer() throws IOException {
            long v = in.readLong();
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new IOException("not an int: " + v);
            }
            return (int) v;
        }

        public double dbl() throws IOException {
            return Double.longBitsToDouble(in.readLong());
        }

        public boolean bool() throws IOException {
            long v = in.readLong();
            if (v != 0 && v != 1) {
                throw new IOException("not a boolean: " + v);
            }
            return v == 1;
        }

        public Integer optInt() throws IOException {
            return bool() ? integer() : null;
        }

        /** A count written by {@link Out#count} (or of a list or map), or -1 for an absent one. */
        public int count() throws IOException {
            long n = in.readLong();
            if (n < -1 || n > MAX_ITEMS || n > in.available()) {
                throw new IOException("bad count " + n);
            }
            return (int) n;
        }

        public List<String> strs() throws IOException {
            int n = count();
            if (n < 0) {
                return null;
            }
            List<String> l = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                l.add(str());
            }
            return l;
        }

        public Map<String, String> strMap() throws IOException {
            int n = count();
            if (n < 0) {
                return null;
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                m.put(str(), str());
            }
            return m;
        }

        /** Throws unless every byte was read: a form with bytes after its end is not one this code wrote. */
        public void end() throws IOException {
            if (in.available() != 0) {
                throw new IOException(in.available() + " bytes after the end of " + all.length);
            }
        }
    }
}
