package org.switchboard.redsyn.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.switchboard.crypto.Hex;

/** HKDF-SHA256 against the RFC 5869 appendix A test vectors. */
class HkdfTest {

    private static final byte[] IKM = Hex.decode("0b".repeat(22));

    @Test
    void rfc5869TestCase1() {
        byte[] salt = Hex.decode("000102030405060708090a0b0c");
        byte[] info = Hex.decode("f0f1f2f3f4f5f6f7f8f9");
        byte[] prk = Hkdf.extract(salt, IKM);
        assertEquals("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5", Hex.encode(prk));
        assertEquals("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
                Hex.encode(Hkdf.expand(prk, info, 42)));
        assertEquals(Hex.encode(Hkdf.expand(prk, info, 42)), Hex.encode(Hkdf.derive(IKM, salt, info, 42)));
    }

    @Test
    void rfc5869TestCase3EmptySaltAndInfo() {
        byte[] prk = Hkdf.extract(new byte[0], IKM);
        assertEquals("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04", Hex.encode(prk));
        assertEquals("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
                Hex.encode(Hkdf.expand(prk, new byte[0], 42)));
    }

    @Test
    void lengthIsBounded() {
        byte[] prk = Hkdf.extract(null, IKM);
        assertEquals(255 * 32, Hkdf.expand(prk, null, 255 * 32).length);
        assertThrows(IllegalArgumentException.class, () -> Hkdf.expand(prk, null, 255 * 32 + 1));
    }
}
