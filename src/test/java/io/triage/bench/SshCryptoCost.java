package io.triage.bench;

import org.apache.sshd.common.cipher.BuiltinCiphers;
import org.apache.sshd.common.cipher.Cipher;
import org.apache.sshd.common.mac.BuiltinMacs;
import org.apache.sshd.common.mac.Mac;
import org.apache.sshd.common.signature.BuiltinSignatures;
import org.apache.sshd.common.signature.Signature;
import org.apache.sshd.common.util.security.SecurityUtils;

import javax.crypto.KeyAgreement;
import java.lang.management.ManagementFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;

/**
 * Benchmark, not a test: what the SSH client's per-host cryptography costs in this JVM, to choose key exchange,
 * cipher and MAC for a sweep. Per operation, thread CPU: the first call (cold code) and the mean of the rest.
 * A look does one key exchange (the client's half: one key pair and one agreement), verifies one host-key
 * signature, makes one user-key signature, and moves about 50 KB (the script out, the answer back).
 * Run with the launcher's JIT: {@code java -XX:TieredStopAtLevel=1 -cp target/triage.jar:target/test-classes
 * io.triage.bench.SshCryptoCost [N=200]}
 */
public final class SshCryptoCost {
    private interface Op {
        void run() throws Exception;
    }

    private static final int BYTES = 50_000;

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        // two key pairs and one agreement: a little more than the client's half of a key exchange
        time("curve25519 key pair + agreement", n, () -> agree("X25519", null, "X25519"));
        time("ecdh-nistp256 key pair + agreement", n, () -> agree("EC", new ECGenParameterSpec("secp256r1"), "ECDH"));
        KeyPair ed = SecurityUtils.getKeyPairGenerator(SecurityUtils.EDDSA).generateKeyPair();
        time("ssh-ed25519 sign + verify", n, () -> signVerify(BuiltinSignatures.ed25519, ed));
        KeyPairGenerator ecg = KeyPairGenerator.getInstance("EC");
        ecg.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair ec = ecg.generateKeyPair();
        time("ecdsa-sha2-nistp256 sign + verify", n, () -> signVerify(BuiltinSignatures.nistp256, ec));
        for (BuiltinCiphers c : new BuiltinCiphers[] {BuiltinCiphers.cc20p1305_openssh, BuiltinCiphers.aes128gcm,
                BuiltinCiphers.aes128ctr}) {
            time(c.getName() + ", 50 KB", n, () -> encrypt(c));
        }
        for (BuiltinMacs m : new BuiltinMacs[] {BuiltinMacs.hmacsha256etm, BuiltinMacs.hmacsha1etm}) {
            time(m.getName() + ", 50 KB", n, () -> mac(m));
        }
    }

    private static void agree(String kind, ECGenParameterSpec spec, String agreement) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance(kind);
        if (spec != null) {
            g.initialize(spec);
        }
        KeyPair ours = g.generateKeyPair();
        KeyPair theirs = g.generateKeyPair();
        KeyAgreement ka = KeyAgreement.getInstance(agreement);
        ka.init(ours.getPrivate());
        ka.doPhase(theirs.getPublic(), true);
        ka.generateSecret();
    }

    private static void signVerify(BuiltinSignatures kind, KeyPair keys) throws Exception {
        byte[] data = new byte[64];
        Signature s = kind.create();
        s.initSigner(null, keys.getPrivate());
        s.update(null, data, 0, data.length);
        byte[] sig = s.sign(null);
        Signature v = kind.create();
        v.initVerifier(null, keys.getPublic());
        v.update(null, data, 0, data.length);
        if (!v.verify(null, sig)) {
            throw new IllegalStateException(kind + " did not verify its own signature");
        }
    }

    private static void encrypt(BuiltinCiphers kind) throws Exception {
        Cipher c = kind.create();
        c.init(Cipher.Mode.Encrypt, new byte[Math.max(64, c.getKdfSize())], new byte[c.getIVSize()]);
        int len = 32768 - 32768 % c.getCipherBlockSize();
        byte[] packet = new byte[4 + len + 64];
        for (int done = 0; done < BYTES; done += len) {
            if (c.getAuthenticationTagSize() > 0) {
                c.updateAAD(packet, 0, 4);
                c.update(packet, 4, len);
            } else {
                c.update(packet, 0, len);
            }
        }
    }

    private static void mac(BuiltinMacs kind) throws Exception {
        Mac m = kind.create();
        m.init(new byte[64]);
        byte[] packet = new byte[32768];
        for (int done = 0; done < BYTES; done += packet.length) {
            m.update(packet, 0, packet.length);
            m.doFinal();
        }
    }

    private static void time(String name, int n, Op op) throws Exception {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long c0 = bean.getCurrentThreadCpuTime();
        op.run();
        long first = bean.getCurrentThreadCpuTime() - c0;
        c0 = bean.getCurrentThreadCpuTime();
        for (int i = 1; i < n; i++) {
            op.run();
        }
        long rest = (bean.getCurrentThreadCpuTime() - c0) / Math.max(1, n - 1);
        System.out.printf("%-40s first %7.2f ms, then %7.3f ms each (%d)%n", name, first / 1e6, rest / 1e6, n);
    }

    private SshCryptoCost() {
    }
}
