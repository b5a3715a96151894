import Emulator
import Foundation
import Testing

/// Request ids look like the ones Lambda and API Gateway hand out: version 4 UUIDs in lower case.
struct RequestIDTests {
    @Test func bitsBecomeAVersion4UUID() {
        #expect(
            RequestID.make(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
                == "01234567-89ab-4def-bedc-ba9876543210")
        #expect(RequestID.make(high: 0, low: 0) == "00000000-0000-4000-8000-000000000000")
        #expect(RequestID.make(high: .max, low: .max) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    }

    @Test func randomIDsParseAsUUIDsAndDiffer() throws {
        let ids = (0..<1000).map { _ in RequestID.make() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4)
            #expect(bytes[8] >> 6 == 0b10)
        }
    }
}
