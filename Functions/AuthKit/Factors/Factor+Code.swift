import GatehouseJSON
import StoreCore

extension Factor {
    /// Whether `code` is shaped as a TOTP code: six ASCII digits.
    static func isShaped(_ code: String) -> Bool {
        code.utf8.count == TOTP.digits && code.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// The time step of `code` when it is this factor's at `time` (one step of skew either way,
    /// compared in constant time) and later than the last step accepted, so that a code works
    /// once; nil otherwise. The secret is opened with `box`.
    func acceptedStep(of code: String, box: FactorSecretBox, at time: Double) throws -> Int64? {
        guard Self.isShaped(code) else { return nil }
        let secret = try box.open(sealedSecret, userID: userID, factorID: id)
        guard let step = TOTP.matchingStep(code, secret: secret, at: time), step > lastStep else { return nil }
        return step
    }

    /// The write that keeps `step` as the last one accepted (the factor verified, no longer
    /// expiring), for the caller's transaction: it fails when another use took a step since
    /// this factor was read.
    func stepTaken(_ step: Int64, at time: Double) -> WriteOperation {
        .update(
            table: Factors.table, key: ItemKey(.string(userID), .string(Self.entry(id))),
            actions: [
                .set("lastStep", .number(Double(step))), .set("status", "verified"),
                .set("updatedAt", .number(time * 1000)), .remove("ttl"),
            ],
            condition: .attributeEquals("lastStep", .number(Double(lastStep))))
    }

    /// The write that verifies a factor with no step to keep (a phone factor's texted code
    /// works once by its challenge), on the condition that it still exists.
    func markedVerified(at time: Double) -> WriteOperation {
        .update(
            table: Factors.table, key: ItemKey(.string(userID), .string(Self.entry(id))),
            actions: [.set("status", "verified"), .set("updatedAt", .number(time * 1000)), .remove("ttl")],
            condition: .itemExists)
    }
}
