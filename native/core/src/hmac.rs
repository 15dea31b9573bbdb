//! SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), without crates: the core seals state it hands
//! to clients and must verify it on the way back. Comparison of tags is constant-time.

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

const H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

pub const DIGEST_BYTES: usize = 32;
const BLOCK: usize = 64;

/// An incremental SHA-256.
#[derive(Clone)]
pub struct Sha256 {
    state: [u32; 8],
    buf: [u8; BLOCK],
    filled: usize,
    length: u64,
}

impl Default for Sha256 {
    fn default() -> Sha256 {
        Sha256::new()
    }
}

impl Sha256 {
    pub fn new() -> Sha256 {
        Sha256 {
            state: H0,
            buf: [0; BLOCK],
            filled: 0,
            length: 0,
        }
    }

    pub fn update(&mut self, mut data: &[u8]) {
        self.length = self.length.wrapping_add(data.len() as u64);
        if self.filled > 0 {
            let take = (BLOCK - self.filled).min(data.len());
            self.buf[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled < BLOCK {
                return;
            }
            let block = self.buf;
            compress(&mut self.state, &block);
            self.filled = 0;
        }
        while data.len() >= BLOCK {
            let mut block = [0u8; BLOCK];
            block.copy_from_slice(&data[..BLOCK]);
            compress(&mut self.state, &block);
            data = &data[BLOCK..];
        }
        self.buf[..data.len()].copy_from_slice(data);
        self.filled = data.len();
    }

    pub fn finish(mut self) -> [u8; DIGEST_BYTES] {
        let bits = self.length.wrapping_mul(8);
        self.update_padding(bits);
        let mut out = [0u8; DIGEST_BYTES];
        for (i, word) in self.state.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
        }
        out
    }

    fn update_padding(&mut self, bits: u64) {
        let mut pad = [0u8; BLOCK + 8];
        pad[0] = 0x80;
        // Pad to 56 bytes mod 64, then the 64-bit big-endian bit length.
        let zeros = (BLOCK + 56 - (self.filled + 1) % BLOCK) % BLOCK;
        let n = 1 + zeros;
        pad[n..n + 8].copy_from_slice(&bits.to_be_bytes());
        let length = self.length;
        self.update(&pad[..n + 8]);
        self.length = length;
    }
}

fn compress(state: &mut [u32; 8], block: &[u8; BLOCK]) {
    let mut w = [0u32; 64];
    for (i, chunk) in block.chunks(4).enumerate() {
        w[i] = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    for i in 16..64 {
        let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
        let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16]
            .wrapping_add(s0)
            .wrapping_add(w[i - 7])
            .wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for i in 0..64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = h
            .wrapping_add(s1)
            .wrapping_add(ch)
            .wrapping_add(K[i])
            .wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(maj);
        h = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

pub fn sha256(data: &[u8]) -> [u8; DIGEST_BYTES] {
    let mut h = Sha256::new();
    h.update(data);
    h.finish()
}

/// HMAC-SHA256 keyed once; `mac` may be called for many messages.
#[derive(Clone)]
pub struct Hmac {
    inner: Sha256,
    outer: Sha256,
}

impl Hmac {
    pub fn new(key: &[u8]) -> Hmac {
        let mut k = [0u8; BLOCK];
        if key.len() > BLOCK {
            k[..DIGEST_BYTES].copy_from_slice(&sha256(key));
        } else {
            k[..key.len()].copy_from_slice(key);
        }
        let mut ipad = [0x36u8; BLOCK];
        let mut opad = [0x5cu8; BLOCK];
        for i in 0..BLOCK {
            ipad[i] ^= k[i];
            opad[i] ^= k[i];
        }
        let mut inner = Sha256::new();
        inner.update(&ipad);
        let mut outer = Sha256::new();
        outer.update(&opad);
        Hmac { inner, outer }
    }

    pub fn mac(&self, message: &[u8]) -> [u8; DIGEST_BYTES] {
        let mut inner = self.inner.clone();
        inner.update(message);
        let mut outer = self.outer.clone();
        outer.update(&inner.finish());
        outer.finish()
    }

    /// Whether `tag` is the MAC of `message`, compared in constant time.
    pub fn verify(&self, message: &[u8], tag: &[u8]) -> bool {
        let expected = self.mac(message);
        if tag.len() != expected.len() {
            return false;
        }
        expected
            .iter()
            .zip(tag)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{:02x}", b)).collect()
    }

    #[test]
    fn sha256_known_answers() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        let million = vec![b'a'; 1_000_000];
        assert_eq!(
            hex(&sha256(&million)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn incremental_updates_equal_one_shot_at_every_split() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300] {
            let whole = sha256(&data[..len]);
            for split in 0..=len {
                let mut h = Sha256::new();
                h.update(&data[..split]);
                h.update(&data[split..len]);
                assert_eq!(h.finish(), whole, "len {} split {}", len, split);
            }
        }
    }

    #[test]
    fn hmac_rfc4231_vectors() {
        // Test cases 1, 2, 4 and 6 of RFC 4231 (6: a key longer than the block).
        let cases: [(&[u8], &[u8], &str); 4] = [
            (
                &[0x0b; 20],
                b"Hi There",
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            ),
            (
                b"Jefe",
                b"what do ya want for nothing?",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            ),
            (
                &[
                    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                    23, 24, 25,
                ],
                &[0xcd; 50],
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
            ),
            (
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            ),
        ];
        for (key, data, expected) in cases {
            let h = Hmac::new(key);
            assert_eq!(hex(&h.mac(data)), expected);
            assert!(h.verify(data, &h.mac(data)));
        }
    }

    #[test]
    fn keys_of_one_block_are_used_as_they_are_and_longer_ones_hashed() {
        // Reference values from Python's hmac module.
        let cases: [(usize, &str); 3] = [
            (
                63,
                "ed35d4fa84df7c3bb1ed6a6199f88e7bce054f36124a5e1d89ccbba07a752647",
            ),
            (
                64,
                "f52cc29da087ca29859cb19ae75c3d0b8a96519542d6cbf045bfb5e4323e09bc",
            ),
            (
                65,
                "90e6ec42302d3d03f48aa8f5429469c1c75d3f74e9bcbab500f4617ea3d01a46",
            ),
        ];
        for (len, expected) in cases {
            let h = Hmac::new(&vec![0x42; len]);
            assert_eq!(
                hex(&h.mac(b"one block of key")),
                expected,
                "key of {} bytes",
                len
            );
        }
    }

    #[test]
    fn verification_refuses_any_change() {
        let h = Hmac::new(b"k");
        let tag = h.mac(b"message");
        assert!(h.verify(b"message", &tag));
        assert!(!h.verify(b"messagf", &tag));
        assert!(!h.verify(b"message", &tag[..31]));
        assert!(!h.verify(b"message", &[tag.as_slice(), &[0]].concat()));
        assert!(!h.verify(b"message", &[]));
        for i in 0..DIGEST_BYTES {
            for bit in [0x01, 0x80] {
                let mut flipped = tag;
                flipped[i] ^= bit;
                assert!(!h.verify(b"message", &flipped), "byte {} bit {:#x}", i, bit);
            }
            // Two differences that cancel out under XOR must still refuse.
            let mut twice = tag;
            twice[i] ^= 1;
            twice[(i + 1) % DIGEST_BYTES] ^= 1;
            assert!(!h.verify(b"message", &twice), "bytes {} and {}", i, i + 1);
        }
        assert!(!Hmac::new(b"other").verify(b"message", &tag));
    }
}
