import ZeroMQ

/// Four frames as a collection without an array of their own: the head of a message put in front of a body
/// (`Array.replaceSubrange`) allocates nothing for it.
struct CollectionOfFour: RandomAccessCollection {
    let elements: (Frame, Frame, Frame, Frame)

    init(_ first: Frame, _ second: Frame, _ third: Frame, _ fourth: Frame) {
        elements = (first, second, third, fourth)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { 4 }

    subscript(position: Int) -> Frame {
        switch position {
        case 0: elements.0
        case 1: elements.1
        case 2: elements.2
        case 3: elements.3
        default: preconditionFailure("index \(position) of four frames")
        }
    }
}
