extension UnsafeMutableBufferPointer {
    /// The element at `index`, moved out, with `spent` put in its place: a list carried out in order
    /// hands each element on without a copy, whose references would be taken and given back (an atomic
    /// pair each) beside the release the list's end makes anyway (issue 28). `spent` should hold no
    /// references, so that emptying the list afterwards releases nothing twice and costs nothing.
    @inlinable public func take(at index: Int, leaving spent: Element) -> Element {
        let slot = baseAddress! + index
        let element = slot.move()
        slot.initialize(to: spent)
        return element
    }
}
