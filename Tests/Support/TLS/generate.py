"""Makes the outbound HTTPS client tests' certificates (checked in; run again to replace them).

Two CAs and four server certificates, all EC P-256, for a server on 127.0.0.1:
  ca.pem            the test CA the client is told to trust (SSL_CERT_FILE / caBundle)
  server.pem/-key   from that CA, for 127.0.0.1 and localhost, valid 2026-11-01 to 2126
  expired.pem/-key  from that CA, for 127.0.0.1, valid 2020-01-01 to 2021-01-01
  wrong-host.pem/-key  from that CA, for other.example only
  other.pem/-key    for 127.0.0.1, from a second CA the client does not trust
The keys protect nothing. Needs `pip install cryptography`.
"""
import datetime
import ipaddress

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def when(year, month=1, day=1):
    return datetime.datetime(year, month, day, tzinfo=datetime.timezone.utc)


def authority(common):
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name(common))
        .issuer_name(name(common))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(when(2026, 11, 1))
        .not_valid_after(when(2126))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return key, certificate


def leaf(ca_key, ca_certificate, names, start, end):
    key = ec.generate_private_key(ec.SECP256R1())
    alternatives = [
        x509.IPAddress(ipaddress.ip_address(entry)) if entry[0].isdigit() else x509.DNSName(entry) for entry in names
    ]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name(names[0]))
        .issuer_name(ca_certificate.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_certificate.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    return key, certificate


def write(stem, key, certificate):
    with open(f"{stem}.pem", "wb") as file:
        file.write(certificate.public_bytes(serialization.Encoding.PEM))
    if key is not None:
        with open(f"{stem}-key.pem", "wb") as file:
            file.write(
                key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                )
            )


ca_key, ca = authority("Gatehouse Test CA")
other_key, other_ca = authority("Gatehouse Other Test CA")
write("ca", None, ca)
write("server", *leaf(ca_key, ca, ["127.0.0.1", "localhost"], when(2026, 11, 1), when(2126)))
write("expired", *leaf(ca_key, ca, ["127.0.0.1", "localhost"], when(2020), when(2021)))
write("wrong-host", *leaf(ca_key, ca, ["other.example"], when(2026, 11, 1), when(2126)))
write("other", *leaf(other_key, other_ca, ["127.0.0.1", "localhost"], when(2026, 11, 1), when(2126)))
